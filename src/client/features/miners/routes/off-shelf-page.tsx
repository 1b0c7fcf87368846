/**
 * /device/miners — off-shelf records (spec 3 §2): the farm's miners marked off shelf (batch "off shelf" or
 * "off shelf + DHCP") with when, by whom, the batch, IP, SN, model, customer; search by IP, SN or customer;
 * paged in the database; CSV / Excel export of a selection; "back on shelf" for a selection (operation key).
 */
import { useMemo } from 'react';
import { Badge, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowBackUp, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { findMenuByKey } from '@shared/menu-catalogue';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import type { OffShelfRow } from '@shared/schemas/miner-records';
import { useAgentKey } from '@client/lib/agent-key';
import { usePhone } from '@client/lib/use-phone';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePermissions } from '@client/lib/session-api';
import { DataTable } from '@client/components/data-table/data-table';
import type { Column } from '@client/components/data-table/data-table-types';
import { queryTableState } from '@client/components/data-table/query-state';
import { usePagedList } from '@client/components/data-table/use-paged-list';
import { PageHeader } from '@client/components/page-header';
import { SearchForm } from '@client/components/search-form';
import { useOffShelf, useOnShelf } from '../api/miner-records-api';
import { NoFarmState } from '@client/components/no-farm-state';
import { downloadBlob } from '@client/lib/download-blob';
import { type ExportFormat, exportFileName, toCsv, toXlsx } from '../lib/export-miners';
import { offShelfIpColumn, offShelfNetworkColumn, offShelfNetworkText } from '../lib/off-shelf-columns';
import { useMinerLabels } from '../lib/use-miner-labels';
import { REPAIR_COLOR } from '../lib/repair-status';

const OPERATE = findMenuByKey('offShelfRecords')?.operation ?? -1;

export function OffShelfPage() {
  const { t } = useTranslation('miners');
  // A finger's target on a phone (an xs button is 30 px tall).
  const phone = usePhone();
  const { label } = useMinerLabels();
  const agentKey = useAgentKey();
  const perms = usePermissions();
  const list = usePagedList();
  const { search, selected, setSelected } = list;
  const query = useOffShelf(agentKey ?? '', search, list.page, list.pageSize);
  const onShelf = useOnShelf(agentKey ?? '');
  const rows = useMemo(() => query.data?.list ?? [], [query.data]);
  const canOperate = perms.has(OPERATE);

  const columns = useMemo<Column<OffShelfRow>[]>(
    () => [
      offShelfIpColumn<OffShelfRow>(t('offShelf.ip')),
      { key: 'sn', title: t('offShelf.sn'), width: 210 },
      { key: 'model', title: t('offShelf.model'), width: 170 },
      { key: 'customer', title: t('offShelf.customer'), width: 140 },
      { key: 'offShelfAt', title: t('offShelf.at'), width: 170, render: (r) => formatDate(r.offShelfAt) },
      {
        key: 'repairStatus',
        title: t('maintain.col.status'),
        width: 190,
        render: (r) => (
          <Badge variant="light" color={REPAIR_COLOR[r.repairStatus]}>
            {label('repairStatus', r.repairStatus)}
          </Badge>
        ),
      },
      { key: 'by', title: t('offShelf.by'), width: 120 },
      { key: 'op', title: t('offShelf.op'), width: 170, render: (r) => (r.op ? t(`offShelf.ops.${r.op}`) : '-') },
      offShelfNetworkColumn<OffShelfRow>(t, t('offShelf.network')),
    ],
    [t, label],
  );

  if (!agentKey) {
    return (
      <Stack gap="md">
        <PageHeader title={t('offShelf.title')} />
        <NoFarmState />
      </Stack>
    );
  }

  const selectedRows = rows.filter((r) => selected.includes(r.ip));
  const exportRows = async (format: ExportFormat) => {
    if (selectedRows.length === 0) {
      notifyFailure(null, t('export.selectFirst'));
      return;
    }
    const cols = columns;
    const cell = (r: OffShelfRow, key: string): string => {
      if (key === 'offShelfAt') return formatDate(r.offShelfAt);
      if (key === 'op') return r.op ? t(`offShelf.ops.${r.op}`) : '';
      if (key === 'network') return offShelfNetworkText(t, r);
      if (key === 'repairStatus') return label('repairStatus', r.repairStatus);
      const v = (r as unknown as Record<string, unknown>)[key];
      return v === null || v === undefined ? '' : String(v);
    };
    const table = { headers: cols.map((c) => String(c.title)), rows: selectedRows.map((r) => cols.map((c) => cell(r, c.key))) };
    try {
      const name = exportFileName(agentKey, format).replace(/^miners-/, 'off-shelf-');
      if (format === 'csv') downloadBlob(new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }), name);
      else downloadBlob(await toXlsx(table, t('offShelf.sheet')), name);
      notifySuccess(t('export.done', { count: selectedRows.length }));
    } catch (e) {
      notifyFailure(e, t('export.failed'));
    }
  };

  const backOnShelf = () => {
    const ips = selected.map(String);
    modals.openConfirmModal({
      title: t('offShelf.onShelf'),
      children: <Text size="sm">{t('offShelf.confirm', { count: ips.length })}</Text>,
      labels: { confirm: t('offShelf.onShelf'), cancel: t('offShelf.cancel') },
      onConfirm: () =>
        onShelf.mutate(ips, {
          onSuccess: (r) => {
            setSelected([]);
            notifySuccess(t('offShelf.done', { count: r.changed.length }));
          },
          onError: (e) => notifyFailure(e, t('offShelf.failed')),
        }),
    });
  };

  const toolbar = (
    <Group gap="xs" wrap="wrap" style={{ flex: 1 }}>
      <SearchForm
        placeholder={t('offShelf.search')}
        testId="off-shelf-search"
        onSearch={list.setSearch}
      />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconDownload size={14} />} data-testid="off-shelf-export">
            {t('export.button')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => void exportRows('csv')} data-testid="off-shelf-export-csv">{t('export.csv')}</Menu.Item>
          <Menu.Item onClick={() => void exportRows('xlsx')} data-testid="off-shelf-export-xlsx">{t('export.xlsx')}</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {canOperate && (
        <Button size={phone ? 'sm' : 'xs'} leftSection={<IconArrowBackUp size={14} />} disabled={selected.length === 0} loading={onShelf.isPending} onClick={backOnShelf} data-testid="off-shelf-back">
          {t('offShelf.onShelf')}
          {selected.length > 0 ? ` (${selected.length})` : ''}
        </Button>
      )}
      {/* How many there are: past 13 rows the table scrolls inside itself, and pages start only above 50. */}
      {query.data && (
        <Text size="sm" c="dimmed" data-testid="off-shelf-total">
          {t(search ? 'offShelf.matching' : 'offShelf.total', { count: query.data.total, n: formatNumber(query.data.total) })}
        </Text>
      )}
    </Group>
  );

  return (
    <Stack gap="md" data-testid="off-shelf-page">
      <PageHeader title={t('offShelf.title')} description={t('offShelf.description')} />
      <DataTable<OffShelfRow>
        columns={columns}
        rows={rows}
        rowKey="ip"
        prefKey="/device/miners"
        {...queryTableState(query)}
        emptyText={search ? t('offShelf.noMatch') : t('offShelf.empty')}
        rowNumbers
        selection={{ selectedKeys: selected, onChange: setSelected }}
        pagination={list.pagination(query.data?.total ?? 0)}
        toolbar={toolbar}
        ariaLabel={t('offShelf.title')}
      />
    </Stack>
  );
}
