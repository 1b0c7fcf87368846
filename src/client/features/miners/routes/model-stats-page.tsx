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

const pct = (part: number, whole: number) => (whole > 0 ? (part * 100) / whole : null);

export function ModelStatsPage() {
  const { t } = useTranslation('miners');
  const agentKey = useAgentKey();
  const navigate = useNavigate();
  const stats = useModelStats(agentKey);
  const [sort, setSort] = useState<SortState | null>(null);

  const columns = useMemo<Column<MinerModelStat>[]>(
    () => [
      { key: 'model', title: t('models.model'), width: 160, sortable: true, fixed: 'left' },
      { key: 'make', title: t('models.make'), width: 120, sortable: true },
      { key: 'count', title: t('models.count'), width: 100, align: 'right', sortable: true, render: (r) => formatNumber(r.count) },
      { key: 'online', title: t('models.online'), width: 100, align: 'right', sortable: true, render: (r) => formatNumber(r.online) },
      { key: 'qualified', title: t('models.qualified'), width: 100, align: 'right', sortable: true, render: (r) => formatNumber(r.qualified) },
      { key: 'onlineRate', title: t('models.onlineRate'), width: 110, align: 'right', sortable: true, sortValue: (r) => pct(r.online, r.count), render: (r) => formatPercent(pct(r.online, r.count)) },
      { key: 'qualifiedRate', title: t('models.qualifiedRate'), width: 120, align: 'right', sortable: true, sortValue: (r) => pct(r.qualified, r.online), render: (r) => formatPercent(pct(r.qualified, r.online)) },
      { key: 'realGhs', title: t('models.real'), width: 140, align: 'right', sortable: true, render: (r) => formatHashrate(r.realGhs) },
      { key: 'idealGhs', title: t('models.ideal'), width: 140, align: 'right', sortable: true, render: (r) => formatHashrate(r.idealGhs) },
      { key: 'ratio', title: t('models.ratio'), width: 110, align: 'right', sortable: true, sortValue: (r) => pct(r.realGhs, r.idealGhs), render: (r) => formatPercent(pct(r.realGhs, r.idealGhs)) },
    ],
    [t],
  );
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
          <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} loading={stats.isFetching && !stats.isPending} onClick={() => void stats.refetch()}>
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
        prefKey="/statistics/deviceType:models"
        loading={stats.isPending}
        error={stats.isError && !stats.data ? stats.error : undefined}
        onRetry={() => void stats.refetch()}
        emptyText={t('models.empty')}
        sort={sort}
        onSort={setSort}
        onRowClick={(r) => void navigate(`/device/miner?model=${encodeURIComponent(r.model)}`)}
        ariaLabel={t('models.title')}
        toolbar={
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('models.hint')}
            </Text>
          </Group>
        }
      />
    </Stack>
  );
}
