/**
 * Edit a change the server refused, then send it again: the note text / fault details, or — after a 409 on a
 * customer change — a new choice made against the server's current value (its marks version becomes the base).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { minerLabelOptions } from '@shared/miner-labels';
import { LIMITS } from '@shared/validation';
import { useDirtyForm } from '@client/lib/dirty-forms';
import { currentLocale } from '@client/lib/i18n';
import type { OutboxEntry } from '@client/lib/offline/db';
import { type CustomerBody, MINER_WRITE_KINDS, type NoteBody, customerConflict } from '@client/lib/offline/miner-writes';
import { edit } from '@client/lib/offline/outbox';
import { CustomerPicker, NO_CUSTOMER } from '@client/features/field/components/customer-picker';
import { FieldDialog } from '@client/features/field/components/field-dialog';
import { useCachedCustomers } from '@client/features/field/components/miner-customer-dialog';

const MINER_NOTE_MAX = LIMITS.minerNoteMax;

export function DeadLetterEdit({ entry, onClose }: { entry: OutboxEntry; onClose: () => void }) {
  const { t } = useTranslation('offline');
  const kind = entry.kind;
  const isCustomer = kind === MINER_WRITE_KINDS.customer;
  const noteBody = entry.body as NoteBody;
  const customerBody = entry.body as CustomerBody;
  const [text, setText] = useState(isCustomer ? '' : (noteBody.text ?? ''));
  const [fault, setFault] = useState<string>(isCustomer ? '' : (noteBody.faultType ?? ''));
  const [customer, setCustomer] = useState<string>(isCustomer ? (customerBody.customer ?? NO_CUSTOMER) : NO_CUSTOMER);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const conflict = customerConflict(entry);
  const customers = useCachedCustomers(entry.agentKey);
  useDirtyForm('outbox-dead-letter-edit', true);

  const submit = async () => {
    let body: unknown;
    if (isCustomer) {
      body = { ...customerBody, customer: customer === NO_CUSTOMER ? null : customer, baseVersion: conflict?.marksVersion ?? customerBody.baseVersion };
    } else {
      const v = text.trim();
      if (kind === MINER_WRITE_KINDS.note && !v) return setError(t('noteDialog.required'));
      if (kind === MINER_WRITE_KINDS.fault && !fault) return setError(t('faultDialog.faultRequired'));
      body = { ...noteBody, text: v, ...(kind === MINER_WRITE_KINDS.fault ? { faultType: fault } : {}) };
    }
    setSaving(true);
    try {
      await edit(entry.id, body);
      onClose();
    } finally {
      setSaving(false);
    }
  };

  const ip = (entry.body as { ip?: string }).ip ?? '';
  const title = isCustomer ? t('customerDialog.title', { ip }) : kind === MINER_WRITE_KINDS.fault ? t('faultDialog.title', { ip }) : t('noteDialog.title', { ip });
  return (
    <FieldDialog
      title={title}
      onClose={onClose}
      closeLabel={t('drawer.close')}
      testId="dead-letter-edit"
      footer={
        <>
          <button type="button" className="hf-button hf-button-default" onClick={onClose}>
            {t('noteDialog.cancel')}
          </button>
          <button type="button" className="hf-button hf-button-primary" onClick={() => void submit()} disabled={saving} aria-busy={saving} data-testid="dead-letter-save">
            {t('dead.retry')}
          </button>
        </>
      }
    >
      {isCustomer ? (
        <>
          {conflict && (
            <div className="hf-alert hf-alert-orange hf-mb" data-testid="dead-letter-conflict">
              {t('customerDialog.conflict', { customer: conflict.customer ?? t('actions.noCustomer') })}
            </div>
          )}
          <CustomerPicker customers={customers ?? []} value={customer} onChange={setCustomer} testId="dead-letter-customer" />
        </>
      ) : (
        <>
          {kind === MINER_WRITE_KINDS.fault && (
            <>
              <label className="hf-label" htmlFor="dead-letter-fault">
                {t('faultDialog.faultType')}
              </label>
              <select id="dead-letter-fault" className="hf-input hf-mb" value={fault} onChange={(e) => setFault(e.currentTarget.value)}>
                <option value="" disabled>
                  —
                </option>
                {minerLabelOptions(currentLocale(), 'accident').map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.text}
                  </option>
                ))}
              </select>
            </>
          )}
          <label className="hf-label" htmlFor="dead-letter-text">
            {kind === MINER_WRITE_KINDS.fault ? t('faultDialog.note') : t('noteDialog.text')}
          </label>
          <textarea
            id="dead-letter-text"
            className="hf-input hf-textarea"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            rows={4}
            maxLength={MINER_NOTE_MAX}
            data-testid="dead-letter-text"
          />
        </>
      )}
      {error && (
        <p className="hf-field-error" role="alert">
          {error}
        </p>
      )}
    </FieldDialog>
  );
}
