/**
 * NUC connectivity indicator (spec 1 §2.2): polls /api/agent/status every 30 s; hidden when online with
 * no measured delay, coloured by delay, "dropped" when the NUC is offline.
 */
import { Badge, Tooltip } from '@mantine/core';
import { IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import { useNucStatus } from '@client/lib/farm-queries';
import { NUC_LEVEL_COLOR, nucLevel } from '@client/lib/nuc-status';

export interface NucIndicatorProps {
  compact?: boolean;
}

export function NucIndicator({ compact = false }: NucIndicatorProps) {
  const { t } = useTranslation('shell');
  const status = useNucStatus();
  const level = nucLevel(status.data);
  if (level === 'hidden' || !status.data) return null;
  const last = status.data.lastOnlineAt ? formatDate(status.data.lastOnlineAt) : t('nuc.never');
  const dropped = level === 'dropped';
  const text = dropped ? t('nuc.dropped') : t('nuc.delay', { delay: status.data.netDelay });
  return (
    <Tooltip label={dropped ? t('nuc.droppedHint', { time: last }) : t('nuc.delayHint', { delay: status.data.netDelay, time: last })} withArrow>
      <Badge
        color={NUC_LEVEL_COLOR[level]}
        variant={dropped ? 'filled' : 'light'}
        leftSection={dropped ? <IconPlugConnectedX size={14} /> : <IconPlugConnected size={14} />}
        size="lg"
        radius="sm"
        tt="none"
        data-testid="nuc-indicator"
        data-level={level}
        aria-label={`${t('nuc.label')}: ${text}`}
        px={compact ? 6 : undefined}
      >
        {compact && !dropped ? null : text}
      </Badge>
    </Tooltip>
  );
}
