import type { ReactNode } from 'react';
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

/**
 * In a table cell (`compact`): the first badge and "+N" for the others, all of them named in a tooltip — side by side
 * in a fixed-width cell three states read "НУЛЕ… НЕ З… АНОМАЛЬ…". Elsewhere every badge, wrapping.
 */
function BadgeRow({ badges, names, compact }: { badges: ReactNode[]; names: string[]; compact?: boolean }) {
  if (!compact) {
    return (
      <Group gap={4} wrap="wrap">
        {badges}
      </Group>
    );
  }
  if (badges.length <= 1) return <Group wrap="nowrap">{badges}</Group>;
  return (
    <Tooltip label={names.join(', ')} withArrow multiline maw={280}>
      <Group gap={4} wrap="nowrap" data-testid="badges-more">
        <div style={{ minWidth: 0, display: 'flex' }}>{badges[0]}</div>
        <Badge size="xs" variant="default" style={{ flex: 'none' }}>
          +{badges.length - 1}
        </Badge>
      </Group>
    </Tooltip>
  );
}

/** Miner states as small coloured badges (names from the shared catalogue). */
export function StatusBadges({ statuses, compact }: { statuses: readonly MinerStatus[]; compact?: boolean }) {
  const { label } = useMinerLabels();
  if (statuses.length === 0) return '-';
  const badges = statuses.map((s) => (
    <Badge key={s} size="xs" variant="light" color={STATUS_COLORS[s]} data-status={s}>
      {label('status', s)}
    </Badge>
  ));
  return <BadgeRow badges={badges} names={statuses.map((s) => label('status', s))} compact={compact} />;
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

export function FaultBadges({ labels, compact }: { labels: readonly FaultLabel[]; compact?: boolean }) {
  const { label } = useMinerLabels();
  const badges = labels.map((f) => (
    <Badge key={f} size="xs" variant="outline" color="red" data-fault={f}>
      {label('faultType', f)}
    </Badge>
  ));
  return <BadgeRow badges={badges} names={labels.map((f) => label('faultType', f))} compact={compact} />;
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
