import { useTranslation } from 'react-i18next';
import { hideToast, useToasts } from '@client/features/field/lib/toasts';

/** The field app's messages, bottom of the screen (polite live region). */
export function ToastStack() {
  const { t } = useTranslation('field');
  const toasts = useToasts();
  return (
    <div className="hf-toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`hf-toast is-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'} data-testid={toast.testId}>
          <div className="hf-grow">
            {toast.title && <strong className="hf-block">{toast.title}</strong>}
            <div className="hf-small">{toast.message}</div>
          </div>
          <button type="button" className="hf-icon-button" aria-label={t('app.close')} onClick={() => hideToast(toast.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
