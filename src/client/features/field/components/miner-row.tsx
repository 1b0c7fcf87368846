import { useTranslation } from 'react-i18next';
import type { CachedMiner } from '../lib/field-cache';
import { minerPath } from '../lib/field-paths';
import { FieldLink } from './field-link';

/** One miner in a list of the field home: a big tap target to its card. */
export function MinerRow({ miner, extra, testId }: { miner: CachedMiner; extra?: string; testId: string }) {
  const { t } = useTranslation('field');
  return (
    <FieldLink to={minerPath(miner.id)} className="hf-list-row" data-testid={testId} data-miner-id={miner.id}>
      <span className="hf-grow">
        <span className="hf-row-line">
          <span className={`hf-dot ${miner.online ? 'is-online' : 'is-offline'}`} aria-hidden />
          <span className="hf-small hf-dimmed">{miner.online ? t('card.online') : t('card.offline')}</span>
          <strong className="hf-wrap">{miner.ip}</strong>
        </span>
        <span className="hf-small hf-dimmed hf-mono hf-wrap hf-block">
          {miner.sn || t('card.noSn')} · {miner.model || '-'}
          {extra ? ` · ${extra}` : ''}
        </span>
      </span>
      <span className="hf-chevron" aria-hidden>
        ›
      </span>
    </FieldLink>
  );
}
