/**
 * /unshelve-miner/maintain — off-shelf maintenance (spec 3 §2): the miners taken off shelf, longest off shelf first,
 * with where their repair stands (awaiting repair, onsite, outsourced, repaired pending shelf, scrapped), counted per
 * status (the counts filter the list), searched by IP, SN, customer or note, paged in the database. With the page's
 * operation key a selection gets a status and a note, or goes back on shelf (a scrapped miner is refused until it
 * gets another status).
 */
import { useMemo, useState } from 'react';
import { Badge, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowBackUp, IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import { REPAIR_STATUSES, type RepairStatus } from '@shared/miner-labels';
import { findMenuByKey } from '@shared/menu-catalogue';
import type { MaintenanceChangeResult, MaintenanceRow } from '@shared/schemas/off-shelf-maintenance';
import { CountFilter } from '@client/components/count-filter';
import { DataTable } from '@client/components/data-table/data-table';
import type { Column } from '@client/components/data-table/data-table-types';
import { queryTableState } from '@client/components/data-table/query-state';
import { usePagedList } from '@client/components/data-table/use-paged-list';
import { NoFarmState } from '@client/components/no-farm-state';
import { PageHeader } from '@client/components/page-header';
import { SearchForm } from '@client/components/search-form';
import { useAgentKey } from '@client/lib/agent-key';
import { usePhone } from '@client/lib/use-phone';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePermissions } from '@client/lib/session-api';
import { useMaintainOnShelf, useMaintenance, useSetRepairStatus } from '../api/miner-records-api';
import { offShelfIpColumn, offShelfNetworkColumn } from '../lib/off-shelf-columns';
import { REPAIR_COLOR } from '../lib/repair-status';
import { useMinerLabels } from '../lib/use-miner-labels';

const OPERATE = findMenuByKey('unshelveMaintain')?.operation ?? -1;
const DAY_MS = 86_400_000;

export function OffShelfMaintenancePage() {
  const { t } = useTranslation('miners');
  // A finger's target on a phone (an xs button is 30 px tall).
  const phone = usePhone();
  const { label } = useMinerLabels();
  const agentKey = useAgentKey();
  const perms = usePermissions();
  const list = usePagedList<RepairStatus>();
  const { filter: status, search, selected, setSelected } = list;
  const [editing, setEditing] = useState(false);
  const query = useMaintenance(agentKey ?? '', status, search, list.page, list.pageSize);
  const onShelf = useMaintainOnShelf(agentKey ?? '');
  const rows = useMemo(() => query.data?.list ?? [], [query.data]);
  const counts = query.data?.counts;
  const canOperate = perms.has(OPERATE);

  const columns = useMemo<Column<MaintenanceRow>[]>(
    () => [
      offShelfIpColumn<MaintenanceRow>(t('maintain.col.ip')),
      { key: 'sn', title: t('maintain.col.sn'), width: 210, render: (r) => r.sn || '-' },
      { key: 'model', title: t('maintain.col.model'), width: 140, render: (r) => r.model || '-' },
      {
        key: 'repairStatus',
        title: t('maintain.col.status'),
        width: 200,
        render: (r) => (
          <Badge variant="light" color={REPAIR_COLOR[r.repairStatus]} data-testid={`repair-${r.repairStatus}`}>
            {label('repairStatus', r.repairStatus)}
          </Badge>
        ),
      },
      { key: 'repairNote', title: t('maintain.col.note'), width: 220, render: (r) => r.repairNote || '-' },
      {
        key: 'offShelfAt',
        title: t('maintain.col.offShelfAt'),
        // The date and the days off shelf ("2026-11-28 19:22:14 · 12 дней") in full.
        width: 270,
        render: (r) =>
          r.offShelfAt ? `${formatDate(r.offShelfAt)} · ${t('maintain.days', { count: Math.max(0, Math.floor((Date.now() - Date.parse(r.offShelfAt)) / DAY_MS)) })}` : '-',
      },
      { key: 'customer', title: t('maintain.col.customer'), width: 130, render: (r) => r.customer || '-' },
      {
        key: 'repairAt',
        title: t('maintain.col.updated'),
        width: 190,
        render: (r) => (r.repairAt ? `${formatDate(r.repairAt)}${r.repairBy ? ` · ${r.repairBy}` : ''}` : '-'),
      },
      offShelfNetworkColumn<MaintenanceRow>(t, t('maintain.col.network')),
    ],
    [t, label],
  );

  if (!agentKey) {
    return (
      <Stack gap="md">
        <PageHeader title={t('maintain.title')} />
        <NoFarmState />
      </Stack>
    );
  }

  const done = (r: MaintenanceChangeResult, key: 'statusDone' | 'onShelfDone') => {
    setSelected([]);
    const scrapped = r.refused.filter((x) => x.reason === 'scrapped').length;
    const notes = [t(`maintain.${key}`, { count: r.changed.length })];
    if (scrapped) notes.push(t('maintain.scrappedRefused', { count: scrapped }));
    notifySuccess(notes.join(' · '));
  };

  const backOnShelf = () => {
    const ips = selected.map(String);
    modals.openConfirmModal({
      title: t('maintain.onShelf'),
      children: <Text size="sm">{t('maintain.confirmOnShelf', { count: ips.length })}</Text>,
      labels: { confirm: t('maintain.onShelf'), cancel: t('maintain.cancel') },
      onConfirm: () => onShelf.mutate(ips, { onSuccess: (r) => done(r, 'onShelfDone'), onError: (e) => notifyFailure(e, t('maintain.failed')) }),
    });
  };

  const all = counts ? REPAIR_STATUSES.reduce((a, s) => a + counts[s], 0) : undefined;
  const toolbar = (
    <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
      <CountFilter<RepairStatus>
        testId="maintain-filter"
        value={status}
        onChange={list.setFilter}
        options={[
          { value: null, label: t('maintain.all'), count: all },
          ...REPAIR_STATUSES.map((s) => ({ value: s, label: label('repairStatus', s), count: counts?.[s], color: REPAIR_COLOR[s] })),
        ]}
      />
      <Group gap="xs" wrap="wrap">
        <SearchForm placeholder={t('maintain.search')} testId="maintain-search" onSearch={list.setSearch} />
        {canOperate && (
          <>
            <Button size={phone ? 'sm' : 'xs'} leftSection={<IconTool size={14} />} disabled={selected.length === 0} onClick={() => setEditing(true)} data-testid="maintain-set-status">
              {t('maintain.setStatus')}
              {selected.length > 0 ? ` (${selected.length})` : ''}
            </Button>
            <Button
              size={phone ? 'sm' : 'xs'}
              variant="default"
              leftSection={<IconArrowBackUp size={14} />}
              disabled={selected.length === 0}
              loading={onShelf.isPending}
              onClick={backOnShelf}
              data-testid="maintain-on-shelf"
            >
              {t('maintain.onShelf')}
              {selected.length > 0 ? ` (${selected.length})` : ''}
            </Button>
          </>
        )}
      </Group>
    </Stack>
  );

  return (
    <Stack gap="md" data-testid="maintain-page">
      <PageHeader title={t('maintain.title')} description={t('maintain.description')} />
      <DataTable<MaintenanceRow>
        columns={columns}
        rows={rows}
        rowKey="ip"
        prefKey="/unshelve-miner/maintain"
        {...queryTableState(query)}
        emptyText={search || status ? t('maintain.noMatch') : t('maintain.empty')}
        rowNumbers
        selection={canOperate ? { selectedKeys: selected, onChange: setSelected } : undefined}
        pagination={list.pagination(query.data?.total ?? 0)}
        toolbar={toolbar}
        ariaLabel={t('maintain.title')}
      />
      {editing && (
        <RepairStatusDialog
          agentKey={agentKey}
          ips={selected.map(String)}
          initial={rows.find((r) => r.ip === selected[0])?.repairStatus ?? 'awaiting'}
          onClose={() => setEditing(false)}
          onDone={(r) => {
            setEditing(false);
            done(r, 'statusDone');
          }}
        />
      )}
    </Stack>
  );
}

function RepairStatusDialog({
  agentKey,
  ips,
  initial,
  onClose,
  onDone,
}: {
  agentKey: string;
  ips: string[];
  initial: RepairStatus;
  onClose: () => void;
  onDone: (r: MaintenanceChangeResult) => void;
}) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  const { label } = useMinerLabels();
  const [status, setStatus] = useState<RepairStatus>(initial);
  const [note, setNote] = useState('');
  const setRepair = useSetRepairStatus(agentKey);
  const save = () =>
    setRepair.mutate(
      // An empty note keeps each miner's note (a note typed here replaces it).
      { ips, status, ...(note.trim() ? { note: note.trim() } : {}) },
      { onSuccess: onDone, onError: (e) => notifyFailure(e, t('maintain.failed')) },
    );
  return (
    <Modal opened onClose={onClose} fullScreen={phone} title={t('maintain.setStatusTitle', { count: ips.length })} data-testid="maintain-dialog">
      <Stack gap="sm">
        <Select
          label={t('maintain.col.status')}
          data={REPAIR_STATUSES.map((s) => ({ value: s, label: label('repairStatus', s) }))}
          value={status}
          onChange={(v) => v && setStatus(v as RepairStatus)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="maintain-status"
        />
        <Textarea
          label={t('maintain.col.note')}
          description={t('maintain.noteHint')}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
          data-testid="maintain-note"
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" size={phone ? 'sm' : 'xs'} onClick={onClose}>
            {t('maintain.cancel')}
          </Button>
          <Button size={phone ? 'sm' : 'xs'} onClick={save} loading={setRepair.isPending} data-testid="maintain-save">
            {t('maintain.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
