/**
 * "Scan SN": the camera scanner in a dialog (full screen on phones). The scanner's code loads only when the
 * dialog opens. A value must pass the SN rule (17 characters) — otherwise the SN-length message shows and
 * scanning goes on; a valid SN is looked up in this farm's cache (offline too) and opens the miner card,
 * or says it is not in the cache.
 */
import { Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkSn } from '@shared/sn';
import { lazyWithRetry } from '@client/lib/import-retry';
import { findBySn } from '../lib/field-cache';
import { minerPath, navigateTo } from '../lib/field-paths';
import { FieldDialog } from './field-dialog';
import { LoadBoundary } from './load-boundary';
import { Loading } from './loading';

const ScannerHost = lazyWithRetry(() => import('./scanner-host'), (m) => m.ScannerHost);

export function useSnMessage(): (raw: string) => string | null {
  const { t } = useTranslation('field');
  return useCallback(
    (raw: string) => {
      const check = checkSn(raw);
      if (check.ok) return null;
      return check.reason === 'empty' ? t('sn.empty') : t('sn.length', { count: check.length });
    },
    [t],
  );
}

export function ScanDialog({ agentKey, onClose }: { agentKey: string; onClose: () => void }) {
  const { t } = useTranslation('field');
  const snMessage = useSnMessage();
  const [notice, setNotice] = useState<string | null>(null);

  const onScan = useCallback(
    (value: string) => {
      const check = checkSn(value);
      if (!check.ok) return;
      void findBySn(agentKey, check.sn).then((miner) => {
        if (miner) navigateTo(minerPath(miner.id));
        else setNotice(t('scan.notFound', { sn: check.sn }));
      });
    },
    [agentKey, t],
  );

  return (
    <FieldDialog title={t('scan.title')} onClose={onClose} testId="field-scan-dialog" closeLabel={t('app.close')}>
      <LoadBoundary>
        <Suspense fallback={<Loading />}>
          <ScannerHost validate={snMessage} onScan={onScan} manualLabel={t('scan.manual')} notice={notice} />
        </Suspense>
      </LoadBoundary>
    </FieldDialog>
  );
}
