/** /statistics/deviceType: the current farm's miners per model — count, online, qualified, real vs ideal hashrate. */
import { useMemo, useState } from 'react';
import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataTable } from '@client/components/data-table/data-table';
import type { Column, SortState } from '@client/components/data-table/data-table-types';
import { sortRows } from '@client/components/data-table/sort-rows';
import { useAgentKey } from '@client/lib/agent-key';
import { formatHashrate } from '@shared/format/hashrate';
import { formatNumber } from '@shared/format/number';
import type { MinerModelStat } from '@shared/schemas/miner';
import { useModelStats } from '../api/miners-api';
import { PageHeader } from '@client/components/page-header';
import { NoFarmState } from '@client/components/no-farm-state';
import { formatPercent } from '../lib/format-miner';
import { titleWidth } from '../lib/miner-columns';
import { usePhone } from '@client/lib/use-phone';

const pct = (part: number, whole: number) => (whole > 0 ? (part * 100) / whole : null);

/**
 * A column wide enough for its header and the sort button (headers were cut to "Manufac…", "Quali…" at 1440 px): the
 * header's text as the miner list sizes its titles (titleWidth), plus the button and padding.
 */
function headerWidth(label: string, min: number): number {
  return Math.max(min, titleWidth(label) + 52);
}

export function ModelStatsPage() {
  const { t } = useTranslation('miners');
  const agentKey = useAgentKey();
  const navigate = useNavigate();
  const stats = useModelStats(agentKey);
  const [sort, setSort] = useState<SortState | null>(null);

  const phone = usePhone();
  const columns = useMemo<Column<MinerModelStat>[]>(() => {
    /** A sortable column as wide as its header needs; `extra` adds alignment, rendering and sorting. */
    const col = (key: keyof MinerModelStat | 'onlineRate' | 'qualifiedRate' | 'ratio', label: string, min: number, extra: Partial<Column<MinerModelStat>> = {}): Column<MinerModelStat> => ({
      key,
      title: t(label),
      width: headerWidth(t(label), min),
      sortable: true,
      ...extra,
    });
    const count = (key: 'count' | 'online' | 'qualified', label: string) => col(key, label, 100, { align: 'right', render: (r) => formatNumber(r[key]) });
    const hashrate = (key: 'realGhs' | 'idealGhs', label: string) => col(key, label, 140, { align: 'right', render: (r) => formatHashrate(r[key]) });
    /** A share in percent, sorted by its value. */
    const rate = (key: 'onlineRate' | 'qualifiedRate' | 'ratio', label: string, min: number, share: (r: MinerModelStat) => number | null) =>
      col(key, label, min, { align: 'right', sortValue: share, render: (r) => formatPercent(share(r)) });
    const all: Column<MinerModelStat>[] = [
      { key: 'model', title: t('models.model'), width: phone ? 120 : 160, sortable: true, fixed: 'left' },
      col('make', 'models.make', 120),
      count('count', 'models.count'),
      count('online', 'models.online'),
      count('qualified', 'models.qualified'),
      rate('onlineRate', 'models.onlineRate', 110, (r) => pct(r.online, r.count)),
      rate('qualifiedRate', 'models.qualifiedRate', 120, (r) => pct(r.qualified, r.online)),
      hashrate('realGhs', 'models.real'),
      hashrate('idealGhs', 'models.ideal'),
      rate('ratio', 'models.ratio', 110, (r) => pct(r.realGhs, r.idealGhs)),
    ];
    if (!phone) return all;
    // On a phone only the model and about two columns fit: the counts and rates first, the manufacturer last.
    const order = ['model', 'count', 'onlineRate', 'ratio', 'qualifiedRate', 'online', 'qualified', 'realGhs', 'idealGhs', 'make'];
    return order.flatMap((key) => all.filter((c) => c.key === key));
  }, [t, phone]);
  const rows = useMemo(() => sortRows(stats.data ?? [], columns, sort), [stats.data, columns, sort]);

  if (!agentKey) {
    return (
      <Stack gap="md">
        <PageHeader title={t('models.title')} />
        <NoFarmState />
      </Stack>
    );
  }

  const all = stats.data ?? [];
  const sum = (f: (r: MinerModelStat) => number) => all.reduce((n, r) => n + f(r), 0);
  const totals = { count: sum((r) => r.count), online: sum((r) => r.online), real: sum((r) => r.realGhs), ideal: sum((r) => r.idealGhs) };

  return (
    <Stack gap="md" data-testid="model-stats-page">
      <PageHeader
        title={t('models.title')}
        description={t('models.description')}
        actions={
          // A finger's target on a phone (an xs button is 30 px tall).
          <Button size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconRefresh size={14} />} loading={stats.isFetching && !stats.isPending} onClick={() => void stats.refetch()} data-testid="model-stats-refresh">
            {t('list.refresh')}
          </Button>
        }
      />
      {all.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          {[
            [t('models.models'), formatNumber(all.length)],
            [t('models.count'), formatNumber(totals.count)],
            [t('models.onlineRate'), formatPercent(pct(totals.online, totals.count))],
            [t('models.ratio'), `${formatHashrate(totals.real)} / ${formatHashrate(totals.ideal)}`],
          ].map(([label, value]) => (
            <Card key={label} withBorder padding="sm" radius="md">
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <DataTable<MinerModelStat>
        columns={columns}
        rows={rows}
        rowKey="model"
        prefKey={phone ? '/statistics/deviceType:models:phone' : '/statistics/deviceType:models'}
        loading={stats.isPending}
        error={stats.isError && !stats.data ? stats.error : undefined}
        onRetry={() => void stats.refetch()}
        emptyText={t('models.empty')}
        sort={sort}
        onSort={setSort}
        onRowClick={(r) => void navigate(`/device/miner?model=${encodeURIComponent(r.model)}`)}
        ariaLabel={t('models.title')}
        // "Click a model …" only when there is a model to click (not over "no miners yet" or a failed load).
        toolbar={
          all.length > 0 ? (
            <Group gap="xs">
              <Text size="sm" c="dimmed" data-testid="model-stats-hint">
                {t('models.hint')}
              </Text>
            </Group>
          ) : undefined
        }
      />
    </Stack>
  );
}
