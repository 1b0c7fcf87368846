import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { recentMiners } from '../lib/field-cache';
import { relativeAge } from '../lib/relative-age';
import { MinerRow } from './miner-row';

/** The farm's last 20 opened miners, newest first (this device only). */
export function RecentMiners({ agentKey }: { agentKey: string }) {
  const { t, i18n } = useTranslation('field');
  const recent = useLiveQuery(() => recentMiners(agentKey), [agentKey]);
  return (
    <section className="hf-stack-tight" data-testid="field-recent">
      <h3 className="hf-h4">{t('home.recent')}</h3>
      {recent === undefined ? null : recent.length === 0 ? (
        <p className="hf-dimmed hf-small" data-testid="field-recent-empty">
          {t('home.recentEmpty')}
        </p>
      ) : (
        <div className="hf-list">
          {recent.map((r) =>
            r.miner ? (
              <MinerRow key={r.minerId} miner={r.miner} extra={relativeAge(r.openedAt, i18n.language)} testId="field-recent-row" />
            ) : (
              <p key={r.minerId} className="hf-list-note hf-dimmed hf-small" data-testid="field-recent-gone">
                {r.minerId} · {t('home.recentGone')}
              </p>
            ),
          )}
        </div>
      )}
    </section>
  );
}
