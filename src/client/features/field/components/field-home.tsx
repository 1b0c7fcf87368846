/**
 * /field — the technician's phone home: one big search box (SN or IP; matches from this device's cache as
 * you type), the Scan button, the recently opened miners and how fresh the cache is. Everything reads the
 * local cache (IndexedDB), so it works with no network at all.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { type FormEvent, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkSn } from '@shared/sn';
import { lazyWithRetry } from '@client/lib/import-retry';
import { findBySn, searchCache } from '../lib/field-cache';
import { minerPath, navigateTo } from '../lib/field-paths';
import { useCacheStatus } from '../lib/use-cache-status';
import { LoadBoundary } from './load-boundary';
import { MinerRow } from './miner-row';
import { RecentMiners } from './recent-miners';
import { SyncStatusLine } from './sync-status-line';

// The scan dialog (camera, decoder, the scanner's UI) loads when the user taps Scan, not with the page.
const ScanDialog = lazyWithRetry(() => import('./scan-dialog'), (m) => m.ScanDialog);

export function FieldHome({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('field');
  const [text, setText] = useState('');
  const [scanOpen, setScanOpen] = useState(false);
  const [missing, setMissing] = useState<string | null>(null);
  const status = useCacheStatus(agentKey);
  const query = text.trim();
  const results = useLiveQuery(async () => ({ query, rows: await searchCache(agentKey, query) }), [agentKey, query]);

  // Enter: a whole SN opens its card directly; otherwise the first match.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!query) return;
    const sn = checkSn(query);
    if (sn.ok) {
      const miner = await findBySn(agentKey, sn.sn);
      if (miner) {
        navigateTo(minerPath(miner.id));
        return;
      }
    }
    const first = results?.query === query ? results.rows[0] : undefined;
    if (first) navigateTo(minerPath(first.id));
    else setMissing(query);
  };

  const rows = results?.query === query ? results.rows : [];
  const whole = checkSn(query);
  return (
    <div className="hf-stack hf-page" data-testid="field-home">
      <SyncStatusLine agentKey={agentKey} />
      {status.loaded && status.count === 0 && (
        <div className="hf-alert hf-alert-yellow" data-testid="field-cache-empty">
          {t('home.cacheEmpty')}
        </div>
      )}
      <form onSubmit={(e) => void submit(e)} role="search" noValidate>
        <label className="hf-label" htmlFor="field-search">
          {t('home.searchLabel')}
        </label>
        <div className="hf-search">
          <span className="hf-search-icon" aria-hidden>
            ⌕
          </span>
          <input
            id="field-search"
            className="hf-input hf-input-xl"
            type="search"
            placeholder={t('home.searchPlaceholder')}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setMissing(null);
            }}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            enterKeyHint="search"
            inputMode="text"
            data-testid="field-search"
          />
        </div>
      </form>
      <button type="button" className="hf-button hf-button-primary hf-button-xl" onClick={() => setScanOpen(true)} data-testid="field-scan">
        <span aria-hidden>▦</span> {t('home.scan')}
      </button>
      {query && (
        <section className="hf-stack-tight" data-testid="field-results">
          <h3 className="hf-h4">{t('home.results')}</h3>
          {rows.length > 0 ? (
            <div className="hf-list">
              {rows.map((m) => (
                <MinerRow key={m.id} miner={m} testId="field-result-row" />
              ))}
            </div>
          ) : results?.query === query ? (
            <div className={`hf-alert ${missing ? 'hf-alert-orange' : 'hf-alert-gray'}`} data-testid="field-no-results">
              {whole.ok ? t('scan.notFound', { sn: whole.sn }) : t('home.noResults', { text: query })}
            </div>
          ) : null}
        </section>
      )}
      <RecentMiners agentKey={agentKey} />
      <p className="hf-center hf-small hf-desktop-only">
        <a href="/device/miner">{t('home.desktop')}</a>
      </p>
      {scanOpen && (
        <LoadBoundary onClose={() => setScanOpen(false)}>
          <Suspense fallback={null}>
            <ScanDialog agentKey={agentKey} onClose={() => setScanOpen(false)} />
          </Suspense>
        </LoadBoundary>
      )}
    </div>
  );
}
