/** "Add note" on the miner card: a short text stored through the offline outbox. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@shared/validation';
import { useDirtyForm } from '@client/lib/dirty-forms';
import { FieldDialog } from './field-dialog';

const MINER_NOTE_MAX = LIMITS.minerNoteMax;

export interface MinerNoteDialogProps {
  ip: string;
  onClose: () => void;
  onSave: (text: string) => Promise<void> | void;
}

export function MinerNoteDialog({ ip, onClose, onSave }: MinerNoteDialogProps) {
  const { t } = useTranslation('offline');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useDirtyForm(`miner-note-${ip}`, text.trim() !== '');
  const submit = async () => {
    const v = text.trim();
    if (!v) return setError(t('noteDialog.required'));
    if (v.length > MINER_NOTE_MAX) return setError(t('noteDialog.tooLong'));
    setSaving(true);
    try {
      await onSave(v);
    } finally {
      setSaving(false);
    }
  };
  return (
    <FieldDialog
      title={t('noteDialog.title', { ip })}
      onClose={onClose}
      testId="miner-note-dialog"
      closeLabel={t('drawer.close')}
      footer={
        <>
          <button type="button" className="hf-button hf-button-default" onClick={onClose}>
            {t('noteDialog.cancel')}
          </button>
          <button type="button" className="hf-button hf-button-primary" onClick={() => void submit()} disabled={saving} aria-busy={saving} data-testid="miner-note-save">
            {t('noteDialog.save')}
          </button>
        </>
      }
    >
      <label className="hf-label" htmlFor="miner-note-text">
        {t('noteDialog.text')}
      </label>
      <textarea
        id="miner-note-text"
        className="hf-input hf-textarea"
        placeholder={t('noteDialog.placeholder')}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setError(null);
        }}
        rows={4}
        maxLength={MINER_NOTE_MAX}
        aria-invalid={error !== null}
        aria-describedby={error ? 'miner-note-error' : undefined}
        autoFocus
        data-testid="miner-note-text"
      />
      {error && (
        <p id="miner-note-error" className="hf-field-error" role="alert">
          {error}
        </p>
      )}
    </FieldDialog>
  );
}
