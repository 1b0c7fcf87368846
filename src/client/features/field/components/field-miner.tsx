/**
 * /field/miner/:minerId — one miner of the selected farm from this device's cache (offline too; refreshed from the
 * server while online, use-live-miner.ts): the card,
 * the offline records (note, fault mark, customer) and a link to the full console's detail. Opening it puts
 * the miner on top of "recent miners".
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { getCachedMiner, recordVisit } from '../lib/field-cache';
import { FIELD_HOME_PATH } from '../lib/field-paths';
import { useLiveMiner } from '../lib/use-live-miner';
import { FieldLink } from './field-link';
import { Loading } from './loading';
import { MinerCard } from './miner-card';
import { MinerOfflineActions } from './miner-actions';

export function FieldMiner({ agentKey, minerId }: { agentKey: string; minerId: string }) {
  const { t } = useTranslation('field');
  const found = useLiveQuery(async () => ({ miner: await getCachedMiner(agentKey, minerId) }), [agentKey, minerId]);
  const miner = found?.miner;
  const known = Boolean(miner);
  useLiveMiner(agentKey, minerId);

  useEffect(() => {
    if (known) void recordVisit(agentKey, minerId);
  }, [agentKey, minerId, known]);

  const back = (
    <FieldLink to={FIELD_HOME_PATH} className="hf-button hf-button-default" data-testid="field-card-back">
      <span aria-hidden>←</span> {t('card.back')}
    </FieldLink>
  );

  if (found === undefined) return <Loading label={t('card.loading')} />;
  if (!miner) {
    return (
      <div className="hf-stack hf-page">
        <div>{back}</div>
        <div className="hf-alert hf-alert-yellow" data-testid="field-card-not-found">
          <strong className="hf-block">{t('card.notFound')}</strong>
          {t('card.notFoundHint')}
        </div>
      </div>
    );
  }
  return (
    <div className="hf-stack hf-page" data-testid="field-miner-page">
      <div className="hf-row hf-row-wrap">
        {back}
        <a className="hf-small" href={`/device/miner/detail?ip=${encodeURIComponent(miner.ip)}`} data-testid="field-card-full-detail">
          {t('card.fullDetail')} <span aria-hidden>↗</span>
        </a>
      </div>
      <MinerCard miner={miner} />
      <section className="hf-stack-tight">
        <h3 className="hf-h4">{t('card.actions')}</h3>
        <MinerOfflineActions agentKey={agentKey} miner={miner} />
      </section>
    </div>
  );
}
