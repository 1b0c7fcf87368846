import { useTranslation } from 'react-i18next';

/** A spinner with a label (role=status), for a page or a panel. */
export function Loading({ label, full = false }: { label?: string; full?: boolean }) {
  const { t } = useTranslation('field');
  return (
    <div className={full ? 'hf-loading hf-loading-full' : 'hf-loading'} role="status">
      <span className="hf-spinner" aria-hidden />
      <span className="hf-dimmed">{label ?? t('app.loading')}</span>
    </div>
  );
}
