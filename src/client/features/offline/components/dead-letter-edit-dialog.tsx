/**
 * Edit a change the server refused, then send it again: the note text / fault details, or — after a 409 on a
 * customer change — a new choice made against the server's current value (its marks version becomes the base).
 */
import { Alert, Button, Group, Modal, Select, Textarea } from '@mantine/core';
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { minerLabelOptions } from '@shared/miner-labels';
import { LIMITS } from '@shared/validation';

const MINER_NOTE_MAX = LIMITS.minerNoteMax;
import { useDirtyForm } from '@client/lib/dirty-forms';
import { currentLocale } from '@client/lib/i18n';
import { type OutboxEntry, offlineDb } from '@client/lib/offline/db';
import { type CustomerBody, MINER_WRITE_KINDS, type NoteBody, customerConflict } from '@client/lib/offline/miner-writes';
import { edit } from '@client/lib/offline/outbox';

const NONE = '\u0000none';

export function DeadLetterEditDialog({ entry, onClose }: { entry: OutboxEntry | null; onClose: () => void }) {
  const { t } = useTranslation('offline');
  const [text, setText] = useState('');
  const [fault, setFault] = useState<string | null>(null);
  const [customer, setCustomer] = useState<string | null>(NONE);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const kind = entry?.kind;
  const agentKey = entry?.agentKey ?? '';
  const conflict = entry ? customerConflict(entry) : null;
  const customers = useLiveQuery(
    () =>
      kind === MINER_WRITE_KINDS.customer
        ? offlineDb().customers.where('[agentKey+name]').between([agentKey, Dexie.minKey], [agentKey, Dexie.maxKey]).limit(2000).toArray()
        : [],
    [agentKey, kind],
  );
  useDirtyForm('outbox-dead-letter-edit', entry !== null);
  useEffect(() => {
    if (!entry) return;
    setError(null);
    if (entry.kind === MINER_WRITE_KINDS.customer) {
      const b = entry.body as CustomerBody;
      setCustomer(b.customer ?? NONE);
    } else {
      const b = entry.body as NoteBody;
      setText(b.text ?? '');
      setFault(b.faultType ?? null);
    }
  }, [entry]);
  if (!entry) return null;

  const submit = async () => {
    let body: unknown;
    if (entry.kind === MINER_WRITE_KINDS.customer) {
      const b = entry.body as CustomerBody;
      body = { ...b, customer: customer === NONE ? null : customer, baseVersion: conflict?.marksVersion ?? b.baseVersion };
    } else {
      const b = entry.body as NoteBody;
      const v = text.trim();
      if (entry.kind === MINER_WRITE_KINDS.note && !v) return setError(t('noteDialog.required'));
      if (entry.kind === MINER_WRITE_KINDS.fault && !fault) return setError(t('faultDialog.faultRequired'));
      body = { ...b, text: v, ...(entry.kind === MINER_WRITE_KINDS.fault ? { faultType: fault } : {}) };
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
  const title =
    kind === MINER_WRITE_KINDS.customer ? t('customerDialog.title', { ip }) : kind === MINER_WRITE_KINDS.fault ? t('faultDialog.title', { ip }) : t('noteDialog.title', { ip });
  return (
    <Modal opened onClose={onClose} title={title} centered size="md" data-testid="dead-letter-edit">
      {kind === MINER_WRITE_KINDS.customer ? (
        <>
          {conflict && (
            <Alert color="orange" mb="sm" data-testid="dead-letter-conflict">
              {t('customerDialog.conflict', { customer: conflict.customer ?? t('actions.noCustomer') })}
            </Alert>
          )}
          <Select
            label={t('customerDialog.customer')}
            data={[{ value: NONE, label: t('customerDialog.none') }, ...(customers ?? []).map((c) => ({ value: c.name, label: c.name }))]}
            value={customer}
            onChange={setCustomer}
            searchable
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="dead-letter-customer"
          />
        </>
      ) : (
        <>
          {kind === MINER_WRITE_KINDS.fault && (
            <Select
              mb="sm"
              label={t('faultDialog.faultType')}
              data={minerLabelOptions(currentLocale(), 'accident').map((o) => ({ value: o.value, label: o.text }))}
              value={fault}
              onChange={setFault}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          <Textarea
            label={kind === MINER_WRITE_KINDS.fault ? t('faultDialog.note') : t('noteDialog.text')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            autosize
            minRows={3}
            maxLength={MINER_NOTE_MAX}
            error={error}
            data-testid="dead-letter-text"
          />
        </>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('noteDialog.cancel')}
        </Button>
        <Button onClick={() => void submit()} loading={saving} data-testid="dead-letter-save">
          {t('dead.retry')}
        </Button>
      </Group>
    </Modal>
  );
}
