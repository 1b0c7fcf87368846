/**
 * The counter strip above the list (/api/miner/stat): states, fault labels, 8-hour qualified and offline
 * over 24 hours. Each counter is a button that filters the list by what it counts (again to clear).
 */
import type { CSSProperties } from 'react';
import { Group, Paper, ScrollArea, Skeleton, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@shared/format/number';
import { MINER_FAULT_LABELS, type MinerFilterStatus, type MinerStatus } from '@shared/miner-labels';
import type { MinerFilter, MinerStat } from '@shared/schemas/miner';
import type { FaultLabel } from '@shared/schemas/miner-snapshot';
import type { MinerFilterUpdate } from '../lib/miner-filter';
import { useMinerLabels } from '../lib/use-miner-labels';
import classes from './miner-counters.module.css';
import { STATUS_COLORS } from './status-badges';

const STATUS_ORDER: readonly MinerStatus[] = ['online', 'offline', 'qualified', 'unqualified', 'zeroHashrate', 'cannotStart', 'illegalPool', 'abnormalIdeal', 'sleeping', 'lowPower'];

interface CounterProps {
  testId: string;
  label: string;
  value: number;
  color: string;
  active?: boolean;
  onClick?: () => void;
}

function Counter({ testId, label, value, color, active, onClick }: CounterProps) {
  const coloured = value > 0 && color !== 'gray' && color !== 'blue';
  const body = (
    <Paper
      withBorder
      px="sm"
      py={6}
      radius="md"
      style={{ borderColor: active ? `var(--mantine-color-${color}-6)` : undefined, background: active ? `var(--mantine-color-${color}-light)` : undefined, whiteSpace: 'nowrap' }}
    >
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {/* In its colour when it counts something (miner-counters.module.css: a readable shade in either scheme). */}
      <Text
        fw={700}
        size="lg"
        className={coloured ? classes.value : undefined}
        style={coloured ? ({ '--counter-text': `var(--mantine-color-${color}-text)`, '--counter-strong': `var(--mantine-color-${color}-9)` } as CSSProperties) : undefined}
        data-testid={`${testId}-value`}
      >
        {formatNumber(value)}
      </Text>
    </Paper>
  );
  if (!onClick) return <div data-testid={testId}>{body}</div>;
  return (
    <UnstyledButton onClick={onClick} aria-pressed={Boolean(active)} data-testid={testId} aria-label={`${label}: ${value}`}>
      {body}
    </UnstyledButton>
  );
}

export interface MinerCountersProps {
  stat: MinerStat | undefined;
  loading: boolean;
  error: boolean;
  filter: MinerFilter;
  onFilter: (update: MinerFilterUpdate) => void;
}

export function MinerCounters({ stat, loading, error, filter, onFilter }: MinerCountersProps) {
  const { t } = useTranslation('miners');
  const { label } = useMinerLabels();
  if (!stat) {
    if (error) {
      return (
        <Text size="sm" c="red.7" role="alert" data-testid="miner-counters-error">
          {t('counters.failed')}
        </Text>
      );
    }
    return <Skeleton h={58} radius="md" visible={loading} data-testid="miner-counters-loading" />;
  }
  // A counter shows the miners it counts: the counts leave the state and fault filters out, so a click sets one of them
  // and clears the other ("High temperature 1" while "Low power" was on listed no miner at all).
  const toggleStatus = (s: MinerFilterStatus) => onFilter((f) => (f.status === s ? { ...f, status: undefined } : { ...f, status: s, faultType: undefined }));
  const toggleFault = (label: FaultLabel) => onFilter((f) => (f.faultType === label ? { ...f, faultType: undefined } : { ...f, faultType: label, status: undefined }));
  return (
    <ScrollArea type="auto" offsetScrollbars scrollbarSize={6} data-testid="miner-counters">
      <Group gap="xs" wrap="nowrap" pb={4}>
        <Counter testId="miner-counter-total" label={t('counters.total')} value={stat.total} color="blue" active={!filter.status && !filter.faultType} onClick={() => onFilter((f) => ({ ...f, status: undefined, faultType: undefined }))} />
        {STATUS_ORDER.map((s) => (
          <Counter key={s} testId={`miner-counter-${s}`} label={label('status', s)} value={stat[s]} color={STATUS_COLORS[s]} active={filter.status === s} onClick={() => toggleStatus(s)} />
        ))}
        <Counter testId="miner-counter-qualified8h" label={t('counters.qualified8h')} value={stat.qualified8h} color="teal" active={filter.status === 'qualified8h'} onClick={() => toggleStatus('qualified8h')} />
        <Counter testId="miner-counter-offline24h" label={t('counters.offline24h')} value={stat.offline24h} color="gray" active={filter.status === 'offline24h'} onClick={() => toggleStatus('offline24h')} />
        {MINER_FAULT_LABELS.map((f) => (
          <Counter key={f} testId={`miner-counter-fault-${f}`} label={label('faultType', f)} value={stat.faults[f]} color="red" active={filter.faultType === f} onClick={() => toggleFault(f)} />
        ))}
      </Group>
    </ScrollArea>
  );
}
