/**
 * "Scan SN": the camera scanner in a dialog (full screen on phones). The scanner's code loads only when the
 * dialog opens. A value must pass the SN rule (17 characters) — otherwise the SN-length message shows and
 * scanning goes on; a valid SN is looked up in this farm's cache (offline too) and opens the miner card,
 * or says it is not in the cache.
 */
import { Modal } from '@mantine/core';
import { Suspense, lazy, useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { checkSn } from '@shared/sn';
import { PageLoading } from '@client/components/page-loading';
import { usePhone } from '@client/lib/use-phone';
import { findBySn } from '../lib/field-cache';

const BarcodeScanner = lazy(() => import('@client/lib/scanner/barcode-scanner').then((m) => ({ default: m.BarcodeScanner })));

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

export function ScanDialog({ agentKey, opened, onClose }: { agentKey: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('field');
  const phone = usePhone();
  const navigate = useNavigate();
  const snMessage = useSnMessage();
  const [notice, setNotice] = useState<string | null>(null);

  const onScan = useCallback(
    (value: string) => {
      const check = checkSn(value);
      if (!check.ok) return;
      void findBySn(agentKey, check.sn).then((miner) => {
        if (miner) navigate(`/field/miner/${encodeURIComponent(miner.id)}`);
        else setNotice(t('scan.notFound', { sn: check.sn }));
      });
    },
    [agentKey, navigate, t],
  );

  const close = () => {
    setNotice(null);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('scan.title')} fullScreen={phone} size="lg" data-testid="field-scan-dialog">
      {opened && (
        <Suspense fallback={<PageLoading />}>
          <BarcodeScanner validate={snMessage} onScan={onScan} manualLabel={t('scan.manual')} notice={notice} />
        </Suspense>
      )}
    </Modal>
  );
}
