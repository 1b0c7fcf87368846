import { Alert, List, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@shared/format/number';
import { NUC_SIZING, sizingAdvice } from '../lib/host-sizing';

/** Spec 1 §9 agent sizing, always visible on the host pages. */
export function SizingGuidance() {
  const { t } = useTranslation('farms');
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} title={t('host.sizingTitle')} data-testid="sizing-guidance">
      <List size="sm" spacing={2}>
        <List.Item>
          {t('host.sizingPer10k', {
            cores: NUC_SIZING.coresPer10k,
            memory: NUC_SIZING.memoryGbPer10k,
            disk: NUC_SIZING.diskGbPer10k,
            bandwidth: NUC_SIZING.bandwidthMbitPer10k,
          })}
        </List.Item>
        <List.Item>{t('host.sizingLimit', { limit: formatNumber(NUC_SIZING.maxMinersPerNuc) })}</List.Item>
        <List.Item>{t('host.sizingPing', { miners: NUC_SIZING.maxPingMinersMs, service: NUC_SIZING.maxPingServiceMs })}</List.Item>
        <List.Item>{t('host.sizingVersion', { version: NUC_SIZING.latestWindowsVersion })}</List.Item>
      </List>
    </Alert>
  );
}

export interface OverLimitWarningProps {
  farms: ReadonlyArray<{ agentName: string; agentKey: string; minerCount: number }>;
}

/** Shown when a farm has reached the per-NUC miner limit. */
export function OverLimitWarning({ farms }: OverLimitWarningProps) {
  const { t } = useTranslation('farms');
  const over = farms.filter((f) => sizingAdvice(f.minerCount).overLimit);
  if (over.length === 0) return null;
  const nucs = Math.max(...over.map((f) => sizingAdvice(f.minerCount).nucsNeeded));
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('host.overLimitTitle')} data-testid="sizing-over-limit">
      <Text size="sm">
        {t('host.overLimitBody', {
          farms: over.map((f) => `${f.agentName || f.agentKey} (${formatNumber(f.minerCount)})`).join(', '),
          limit: formatNumber(NUC_SIZING.maxMinersPerNuc),
          nucs,
        })}
      </Text>
    </Alert>
  );
}
