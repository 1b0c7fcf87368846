import { Badge, Group, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import type { MinerStatus } from '@shared/miner-labels';
import type { FaultLabel, PoolStatus } from '@shared/schemas/miner-snapshot';
import { useMinerLabels } from '../lib/use-miner-labels';

export const STATUS_COLORS: Record<MinerStatus, string> = {
  online: 'green',
  offline: 'gray',
  qualified: 'teal',
  unqualified: 'orange',
  zeroHashrate: 'red',
  cannotStart: 'red',
  illegalPool: 'grape',
  abnormalIdeal: 'yellow',
  sleeping: 'indigo',
  lowPower: 'cyan',
};

const POOL_COLORS: Record<PoolStatus, string> = { alive: 'green', dead: 'red', unknown: 'gray' };

/** Miner states as small coloured badges (names from the shared catalogue). */
export function StatusBadges({ statuses }: { statuses: readonly MinerStatus[] }) {
  const { label } = useMinerLabels();
  if (statuses.length === 0) return '-';
  return (
    <Group gap={4} wrap="nowrap">
      {statuses.map((s) => (
        <Badge key={s} size="xs" variant="light" color={STATUS_COLORS[s]} data-status={s}>
          {label('status', s)}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * A miner that missed its last polls but is not yet offline (the farm's missed-poll limit: no false offline for one lost
 * answer): still counted online, its figures those of its last reading — after a reboot, for a minute or two.
 */
export function NotAnsweringBadge({ missed, takenAt }: { missed: number; takenAt: string }) {
  const { t } = useTranslation('miners');
  return (
    <Tooltip label={t('list.notAnsweringTip', { time: formatDate(takenAt) })} withArrow>
      <Badge size="xs" variant="light" color="yellow" miw="max-content" data-status="not-answering">
        {t('list.notAnswering', { count: missed })}
      </Badge>
    </Tooltip>
  );
}

/** Whether a miner missed its last polls while still counted online (NotAnsweringBadge). */
export const notAnswering = (m: { online: boolean; missedPolls: number }): boolean => m.online && m.missedPolls > 0;

export function FaultBadges({ labels }: { labels: readonly FaultLabel[] }) {
  const { label } = useMinerLabels();
  return (
    <Group gap={4} wrap="nowrap">
      {labels.map((f) => (
        <Badge key={f} size="xs" variant="outline" color="red" data-fault={f}>
          {label('faultType', f)}
        </Badge>
      ))}
    </Group>
  );
}

export function PoolStatusDot({ status }: { status: PoolStatus }) {
  const { label } = useMinerLabels();
  const text = label('poolStatus', status);
  return (
    <Tooltip label={text} withArrow>
      <Badge size="xs" circle color={POOL_COLORS[status]} aria-label={text} style={{ flex: 'none', width: 10, minWidth: 10, height: 10, padding: 0 }}>
        {' '}
      </Badge>
    </Tooltip>
  );
}

export function PoolStatusBadge({ status }: { status: PoolStatus | '' }) {
  const { label } = useMinerLabels();
  if (!status) return '-';
  return (
    // As wide as its text: a narrow table column would otherwise cut it to "AL…".
    <Badge size="sm" variant="light" color={POOL_COLORS[status]} miw="max-content">
      {label('poolStatus', status)}
    </Badge>
  );
}
