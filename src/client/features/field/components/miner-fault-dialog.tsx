/** "Mark fault" on the miner card: an accident type (the fault labels first) and optional details (the miner's accident mark). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type MinerAccidentType, minerLabelOptions } from '@shared/miner-labels';
import { LIMITS } from '@shared/validation';
import { useDirtyForm } from '@client/lib/dirty-forms';
import { currentLocale } from '@client/lib/i18n';
import { FieldDialog } from './field-dialog';

const MINER_NOTE_MAX = LIMITS.minerNoteMax;

export interface MinerFaultDialogProps {
  ip: string;
  onClose: () => void;
  onSave: (faultType: MinerAccidentType, text: string) => Promise<void> | void;
}

export function MinerFaultDialog({ ip, onClose, onSave }: MinerFaultDialogProps) {
  const { t } = useTranslation('offline');
  const [fault, setFault] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const options = minerLabelOptions(currentLocale(), 'accident');
  useDirtyForm(`miner-fault-${ip}`, fault !== '' || text.trim() !== '');
  const submit = async () => {
    if (!fault) return setError(t('faultDialog.faultRequired'));
    setSaving(true);
    try {
      await onSave(fault as MinerAccidentType, text.trim());
    } finally {
      setSaving(false);
    }
  };
  return (
    <FieldDialog
      title={t('faultDialog.title', { ip })}
      onClose={onClose}
      testId="miner-fault-dialog"
      closeLabel={t('drawer.close')}
      footer={
        <>
          <button type="button" className="hf-button hf-button-default" onClick={onClose}>
            {t('noteDialog.cancel')}
          </button>
          <button type="button" className="hf-button hf-button-red" onClick={() => void submit()} disabled={saving} aria-busy={saving} data-testid="miner-fault-save">
            {t('faultDialog.save')}
          </button>
        </>
      }
    >
      <label className="hf-label" htmlFor="miner-fault-type">
        {t('faultDialog.faultType')}
      </label>
      <select
        id="miner-fault-type"
        className="hf-input"
        value={fault}
        onChange={(e) => {
          setFault(e.currentTarget.value);
          setError(null);
        }}
        aria-invalid={error !== null}
        aria-describedby={error ? 'miner-fault-error' : undefined}
        data-testid="miner-fault-type"
      >
        <option value="" disabled>
          —
        </option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.text}
          </option>
        ))}
      </select>
      {error && (
        <p id="miner-fault-error" className="hf-field-error" role="alert">
          {error}
        </p>
      )}
      <label className="hf-label hf-mt" htmlFor="miner-fault-text">
        {t('faultDialog.note')}
      </label>
      <textarea
        id="miner-fault-text"
        className="hf-input hf-textarea"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        rows={3}
        maxLength={MINER_NOTE_MAX}
        data-testid="miner-fault-text"
      />
    </FieldDialog>
  );
}
