/** "Change customer" on the miner card: choices from this device's copy of the farm's customers. */
import { Alert, Button, Group, Modal, Select, Text } from '@mantine/core';
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { offlineDb } from '@client/lib/offline/db';
import { useDirtyForm } from '@client/lib/dirty-forms';

const NONE = '\u0000none';

export interface MinerCustomerDialogProps {
  opened: boolean;
  agentKey: string;
  ip: string;
  /** The customer shown now (cached or pending). */
  current: string | null;
  onClose: () => void;
  onSave: (customer: string | null) => Promise<void> | void;
}

export function MinerCustomerDialog({ opened, agentKey, ip, current, onClose, onSave }: MinerCustomerDialogProps) {
  const { t } = useTranslation('offline');
  const [value, setValue] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const customers = useLiveQuery(
    () =>
      offlineDb()
        .customers.where('[agentKey+name]')
        .between([agentKey, Dexie.minKey], [agentKey, Dexie.maxKey])
        .limit(2000)
        .toArray(),
    [agentKey],
  );
  useDirtyForm(`miner-customer-${ip}`, opened && value !== null && value !== (current ?? NONE));
  useEffect(() => {
    if (opened) setValue(current ?? NONE);
  }, [opened, current]);
  const data = [{ value: NONE, label: t('customerDialog.none') }, ...(customers ?? []).map((c) => ({ value: c.name, label: c.name }))];
  const submit = async () => {
    setSaving(true);
    try {
      await onSave(value === NONE || value === null ? null : value);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('customerDialog.title', { ip })} centered size="md" data-testid="miner-customer-dialog">
      <Text size="sm" c="dimmed" mb="xs">
        {t('customerDialog.current', { customer: current ?? t('actions.noCustomer') })}
      </Text>
      {customers && customers.length === 0 && (
        <Alert color="yellow" mb="sm" data-testid="miner-customer-empty">
          {t('customerDialog.noCustomers')}
        </Alert>
      )}
      <Select
        label={t('customerDialog.customer')}
        data={data}
        value={value}
        onChange={setValue}
        searchable
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="miner-customer-select"
      />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('noteDialog.cancel')}
        </Button>
        <Button onClick={() => void submit()} loading={saving} disabled={value === (current ?? NONE)} data-testid="miner-customer-save">
          {t('customerDialog.save')}
        </Button>
      </Group>
    </Modal>
  );
}
