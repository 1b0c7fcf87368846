/**
 * /device/miner: the on-shelf miners of the current farm (spec 3 §2) — the screen operators live in.
 * Server-side filter / sort / paging kept in the address, counters that filter, every column (picker,
 * remembered per user), a selection kept for batch operations (explicit miners or "all N matching"),
 * export of the selection as CSV or Excel, batch operations on the selection or an uploaded IP list, refresh every 60 s.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconDownload, IconFileSpreadsheet, IconFileTypeCsv, IconRefresh, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DataTable } from '@client/components/data-table/data-table';
import type { RowKey, SortState } from '@client/components/data-table/data-table-types';
import { useTablePreferences } from '@client/components/data-table/table-preferences';
import { useAgentKey } from '@client/lib/agent-key';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import { MINER_SORT_KEYS, type MinerRow, type MinerSortKey } from '@shared/schemas/miner';
import { getAllMatchingMiners, useMinerList, useMinerStat } from '../api/miners-api';
import { BatchOperationsBar } from '../components/batch-operations-bar';
import { MinerCounters } from '../components/miner-counters';
import { MinerFilterBar } from '../components/miner-filter-bar';
import { AgentOfflineNotice } from '@client/components/agent-offline-notice';
import { PageHeader } from '@client/components/page-header';
import { NoFarmState } from '@client/components/no-farm-state';
import { type ExportFormat, exportMiners } from '../lib/export-miners';
import { type MinerColumn, minerColumns } from '../lib/miner-columns';
import { type MinerFilterUpdate, type MinerListState, counterFilter, pageBeyondLast, readListState, writeListState } from '../lib/miner-filter';
import { EMPTY_SELECTION, type MinerSelection, applyTableKeys, isAllMatching, selectAllMatching, selectedRows, selectionCount, visibleSelectedKeys } from '../lib/miner-selection';
import { useMinerLabels } from '../lib/use-miner-labels';
import { usePhone } from '@client/lib/use-phone';

export const MINER_TABLE_PREF_KEY = '/device/miner:list';
const NO_ROWS: readonly MinerRow[] = [];

export function MinerListPage() {
  const agentKey = useAgentKey();
  if (!agentKey) {
    return <NoFarmPage />;
  }
  return <MinerList key={agentKey} agentKey={agentKey} />;
}

function NoFarmPage() {
  const { t } = useTranslation('miners');
  return (
    <Stack gap="md">
      <PageHeader title={t('list.title')} />
      <NoFarmState />
    </Stack>
  );
}

function MinerList({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('miners');
  const { label } = useMinerLabels();
  const navigate = useNavigate();
  // Tap targets of at least 32 px on a phone (the compact buttons are 22–26 px tall).
  const phone = usePhone();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const { filter, page, pageSize, sort, order } = state;
  const filterKey = JSON.stringify(filter);

  // Every change applies to the state in the address now, not to the one last rendered: the router writes the address
  // at once but React renders it in a transition, which on a busy phone can still be pending when the next change
  // comes (a search typed right after "Clear filters" was sent with the cleared filters back in).
  const setState = useCallback(
    (update: (s: MinerListState) => MinerListState) => {
      const now = readListState(new URLSearchParams(window.location.search));
      const next = update(now);
      if (next !== now) setParams(writeListState(next), { replace: true });
    },
    [setParams],
  );
  const setFilter = useCallback(
    (update: MinerFilterUpdate) =>
      setState((s) => {
        const next = update(s.filter);
        return next === s.filter ? s : { ...s, filter: next, page: 1 };
      }),
    [setState],
  );

  const list = useMinerList(agentKey, { filter, page, pageSize, sort, order });
  const statFilter = useMemo(() => counterFilter(filter), [filter]);
  const stat = useMinerStat(agentKey, statFilter);
  const rows = list.data?.list ?? NO_ROWS;
  const total = list.data?.total ?? 0;

  // A page past the last (?page=99 of 20): go to the last page rather than saying there are no miners.
  const lastPage = list.data && !list.isPlaceholderData ? pageBeyondLast(page, pageSize, list.data.total) : null;
  useEffect(() => {
    if (lastPage === null) return;
    setState((s) => (s.page === page && s.pageSize === pageSize ? { ...s, page: lastPage } : s));
  }, [lastPage, page, pageSize, setState]);

  const columns = useMemo(() => minerColumns(t, label), [t, label]);
  const { visibleColumns } = useTablePreferences(MINER_TABLE_PREF_KEY, columns);

  // Selection: kept across pages, forgotten when the filter changes (an "all matching" selection is tied to it).
  const [selection, setSelection] = useState<MinerSelection>(EMPTY_SELECTION);
  useEffect(() => setSelection(EMPTY_SELECTION), [filterKey]);
  const selectedKeys = useMemo(() => visibleSelectedKeys(selection, rows), [selection, rows]);
  const onSelectionChange = useCallback((keys: RowKey[]) => setSelection((s) => applyTableKeys(s, keys.map(String), rows)), [rows]);
  const count = selectionCount(selection);

  const onSort = (next: SortState | null) => {
    const key = next && (MINER_SORT_KEYS as readonly string[]).includes(next.key) ? (next.key as MinerSortKey) : undefined;
    setState((s) => ({ ...s, page: 1, ...(key && next ? { sort: key, order: next.direction } : { sort: undefined, order: undefined }) }));
  };

  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const runExport = async (format: ExportFormat) => {
    if (count === 0) {
      notifications.show({ color: 'yellow', message: t('export.selectFirst'), withBorder: true });
      return;
    }
    setExporting(format);
    try {
      const picked =
        selection.kind === 'ips' ? selectedRows(selection) : selectedRows(selection, await getAllMatchingMiners(agentKey, { filter: selection.filter, sort, order }));
      await exportMiners(format, visibleColumns as MinerColumn[], picked, agentKey, t('export.sheet'));
      notifications.show({ color: 'green', message: t('export.done', { count: picked.length }) });
    } catch (error) {
      notifications.show({ color: 'red', message: error instanceof Error && error.message ? `${t('export.failed')} ${error.message}` : t('export.failed') });
    } finally {
      setExporting(null);
    }
  };

  const updatedAt = list.dataUpdatedAt ? formatDate(list.dataUpdatedAt, 'HH:mm:ss') : null;

  const toolbar = (
    <Group gap="xs" wrap="wrap" data-testid="miner-selection-bar">
      <Text size="sm" c={count ? undefined : 'dimmed'} data-testid="miner-selection-count">
        {count ? t('selection.count', { count, formatted: formatNumber(count) }) : t('selection.none')}
      </Text>
      {total > 0 && !isAllMatching(selection) && (count >= rows.length || count === 0) && total > rows.length && (
        <Button size={phone ? 'sm' : 'compact-xs'} variant="light" onClick={() => setSelection(selectAllMatching(filter, total))} data-testid="miner-select-all-matching">
          {t('selection.allMatching', { total: formatNumber(total) })}
        </Button>
      )}
      {count > 0 && (
        <Button size={phone ? 'sm' : 'compact-xs'} variant="subtle" color="gray" leftSection={<IconX size={12} />} onClick={() => setSelection(EMPTY_SELECTION)} data-testid="miner-selection-clear">
          {t('selection.clear')}
        </Button>
      )}
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button size={phone ? 'sm' : 'compact-sm'} variant="default" leftSection={<IconDownload size={14} />} rightSection={<IconChevronDown size={12} />} loading={exporting !== null} data-testid="miner-export">
            {t('export.button')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconFileTypeCsv size={16} />} onClick={() => void runExport('csv')} data-testid="miner-export-csv">
            {t('export.csv')}
          </Menu.Item>
          <Menu.Item leftSection={<IconFileSpreadsheet size={16} />} onClick={() => void runExport('xlsx')} data-testid="miner-export-xlsx">
            {t('export.xlsx')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {/* Miners taken off shelf or removed are no longer here to be seen ticked: they leave the selection. */}
      <BatchOperationsBar agentKey={agentKey} selection={selection} count={count} onLeftList={() => setSelection(EMPTY_SELECTION)} />
    </Group>
  );

  return (
    <Stack gap="sm" data-testid="miner-list-page">
      <PageHeader
        title={t('list.title')}
        description={updatedAt ? t('list.updatedAt', { time: updatedAt }) : t('list.description')}
        actions={
          <Button size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconRefresh size={14} />} loading={list.isFetching && !list.isPending} onClick={() => void Promise.all([list.refetch(), stat.refetch()])} data-testid="miner-refresh">
            {t('list.refresh')}
          </Button>
        }
      />
      <AgentOfflineNotice />
      <MinerCounters stat={stat.data} loading={stat.isPending} error={stat.isError} filter={filter} onFilter={setFilter} />
      <MinerFilterBar agentKey={agentKey} filter={filter} onChange={setFilter} />
      {list.isError && list.data && (
        <Alert color="red" variant="light" py={6} data-testid="miner-refresh-failed">
          {t('list.refreshFailed')}
        </Alert>
      )}
      <DataTable<MinerRow>
        columns={columns}
        rows={rows}
        rowKey="ip"
        prefKey={MINER_TABLE_PREF_KEY}
        loading={list.isPending || (list.isFetching && list.isPlaceholderData) || lastPage !== null}
        error={list.isError && !list.data ? list.error : undefined}
        onRetry={() => void list.refetch()}
        emptyText={Object.keys(filter).length ? t('list.emptyFiltered') : t('list.empty')}
        rowNumbers
        selection={{ selectedKeys, onChange: onSelectionChange }}
        sort={sort ? { key: sort, direction: order ?? 'asc' } : null}
        onSort={onSort}
        pagination={{ total, page, pageSize, onChange: (p, size) => setState((s) => ({ ...s, page: size === s.pageSize ? p : 1, pageSize: size })) }}
        toolbar={toolbar}
        onRowClick={(row) => void navigate(`/device/miner/detail?ip=${encodeURIComponent(row.ip)}`)}
        ariaLabel={t('list.title')}
      />
    </Stack>
  );
}
