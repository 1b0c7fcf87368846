/** "Session expired — log in again": shown while a 401 holds the outbox; nothing waiting is lost. */
import { useTranslation } from 'react-i18next';
import { useOutboxPaused } from '@client/lib/offline/outbox';
import { goToLogin } from './field-session';

export function SessionExpiredBanner({ floating = false }: { floating?: boolean }) {
  const { t } = useTranslation('offline');
  const paused = useOutboxPaused();
  if (!paused) return null;
  return (
    <div className={`hf-alert hf-alert-orange hf-session-banner${floating ? ' is-floating' : ''}`} role="alert" data-testid="outbox-session-expired">
      <strong className="hf-block">{t('session.title')}</strong>
      <div className="hf-row hf-row-wrap">
        <span className="hf-small hf-grow">{t('session.body')}</span>
        <button type="button" className="hf-button hf-button-orange hf-button-compact" data-testid="outbox-login" onClick={() => goToLogin('/login')}>
          {t('session.login')}
        </button>
      </div>
    </div>
  );
}
