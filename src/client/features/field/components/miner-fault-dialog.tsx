/** "Mark fault" on the miner card: a fault label and optional details (the miner's accident mark). */
import { Button, Group, Modal, Select, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { minerLabelOptions } from '@shared/miner-labels';
import type { FaultLabel } from '@shared/schemas/miner-snapshot';
import { LIMITS } from '@shared/validation';

const MINER_NOTE_MAX = LIMITS.minerNoteMax;
import { useDirtyForm } from '@client/lib/dirty-forms';
import { currentLocale } from '@client/lib/i18n';

export interface MinerFaultDialogProps {
  opened: boolean;
  ip: string;
  onClose: () => void;
  onSave: (faultType: FaultLabel, text: string) => Promise<void> | void;
}

export function MinerFaultDialog({ opened, ip, onClose, onSave }: MinerFaultDialogProps) {
  const { t } = useTranslation('offline');
  const [fault, setFault] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const options = minerLabelOptions(currentLocale(), 'faultType').map((o) => ({ value: o.value, label: o.text }));
  useDirtyForm(`miner-fault-${ip}`, opened && (fault !== null || text.trim() !== ''));
  useEffect(() => {
    if (opened) {
      setFault(null);
      setText('');
      setError(null);
    }
  }, [opened]);
  const submit = async () => {
    if (!fault) return setError(t('faultDialog.faultRequired'));
    setSaving(true);
    try {
      await onSave(fault as FaultLabel, text.trim());
      setFault(null);
      setText('');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('faultDialog.title', { ip })} centered size="md" data-testid="miner-fault-dialog">
      <Select
        label={t('faultDialog.faultType')}
        data={options}
        value={fault}
        onChange={(v) => {
          setFault(v);
          setError(null);
        }}
        error={error}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="miner-fault-type"
      />
      <Textarea
        mt="sm"
        label={t('faultDialog.note')}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        autosize
        minRows={2}
        maxRows={6}
        maxLength={MINER_NOTE_MAX}
        data-testid="miner-fault-text"
      />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('noteDialog.cancel')}
        </Button>
        <Button color="red" onClick={() => void submit()} loading={saving} data-testid="miner-fault-save">
          {t('faultDialog.save')}
        </Button>
      </Group>
    </Modal>
  );
}
