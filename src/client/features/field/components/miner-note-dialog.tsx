/** "Add note" on the miner card: a short text stored through the offline outbox. */
import { Button, Group, Modal, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@shared/validation';

const MINER_NOTE_MAX = LIMITS.minerNoteMax;
import { useDirtyForm } from '@client/lib/dirty-forms';

export interface MinerNoteDialogProps {
  opened: boolean;
  ip: string;
  onClose: () => void;
  onSave: (text: string) => Promise<void> | void;
}

export function MinerNoteDialog({ opened, ip, onClose, onSave }: MinerNoteDialogProps) {
  const { t } = useTranslation('offline');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useDirtyForm(`miner-note-${ip}`, opened && text.trim() !== '');
  useEffect(() => {
    if (opened) {
      setText('');
      setError(null);
    }
  }, [opened]);
  const submit = async () => {
    const v = text.trim();
    if (!v) return setError(t('noteDialog.required'));
    if (v.length > MINER_NOTE_MAX) return setError(t('noteDialog.tooLong'));
    setSaving(true);
    try {
      await onSave(v);
      setText('');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('noteDialog.title', { ip })} centered size="md" data-testid="miner-note-dialog">
      <Textarea
        label={t('noteDialog.text')}
        placeholder={t('noteDialog.placeholder')}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setError(null);
        }}
        autosize
        minRows={3}
        maxRows={8}
        maxLength={MINER_NOTE_MAX}
        error={error}
        data-autofocus
        data-testid="miner-note-text"
      />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('noteDialog.cancel')}
        </Button>
        <Button onClick={() => void submit()} loading={saving} data-testid="miner-note-save">
          {t('noteDialog.save')}
        </Button>
      </Group>
    </Modal>
  );
}
