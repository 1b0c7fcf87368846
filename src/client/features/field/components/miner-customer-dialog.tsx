/** "Change customer" on the miner card: choices from this device's copy of the farm's customers. */
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { offlineDb } from '@client/lib/offline/db';
import { useDirtyForm } from '@client/lib/dirty-forms';
import { CustomerPicker, NO_CUSTOMER } from './customer-picker';
import { FieldDialog } from './field-dialog';

export interface MinerCustomerDialogProps {
  agentKey: string;
  ip: string;
  /** The customer shown now (cached or pending). */
  current: string | null;
  onClose: () => void;
  onSave: (customer: string | null) => Promise<void> | void;
}

/** This farm's customers held on the device (sorted by name, at most 2,000). */
export function useCachedCustomers(agentKey: string): string[] | undefined {
  return useLiveQuery(
    async () =>
      (
        await offlineDb()
          .customers.where('[agentKey+name]')
          .between([agentKey, Dexie.minKey], [agentKey, Dexie.maxKey])
          .limit(2000)
          .toArray()
      ).map((c) => c.name),
    [agentKey],
  );
}

export function MinerCustomerDialog({ agentKey, ip, current, onClose, onSave }: MinerCustomerDialogProps) {
  const { t } = useTranslation('offline');
  const initial = current ?? NO_CUSTOMER;
  const [value, setValue] = useState(initial);
  const [saving, setSaving] = useState(false);
  const customers = useCachedCustomers(agentKey);
  useDirtyForm(`miner-customer-${ip}`, value !== initial);
  const submit = async () => {
    setSaving(true);
    try {
      await onSave(value === NO_CUSTOMER ? null : value);
    } finally {
      setSaving(false);
    }
  };
  return (
    <FieldDialog
      title={t('customerDialog.title', { ip })}
      onClose={onClose}
      testId="miner-customer-dialog"
      closeLabel={t('drawer.close')}
      footer={
        <>
          <button type="button" className="hf-button hf-button-default" onClick={onClose}>
            {t('noteDialog.cancel')}
          </button>
          <button
            type="button"
            className="hf-button hf-button-primary"
            onClick={() => void submit()}
            disabled={saving || value === initial}
            aria-busy={saving}
            data-testid="miner-customer-save"
          >
            {t('customerDialog.save')}
          </button>
        </>
      }
    >
      <p className="hf-small hf-dimmed">{t('customerDialog.current', { customer: current ?? t('actions.noCustomer') })}</p>
      {customers && customers.length === 0 && (
        <div className="hf-alert hf-alert-yellow" data-testid="miner-customer-empty">
          {t('customerDialog.noCustomers')}
        </div>
      )}
      <CustomerPicker customers={customers ?? []} value={value} onChange={setValue} testId="miner-customer-select" />
    </FieldDialog>
  );
}
