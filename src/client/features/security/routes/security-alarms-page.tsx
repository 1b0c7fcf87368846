/**
 * /alarm/security — abnormal alarms: suspicious SSH behaviour (spec 3 §2, §3 security record, §4, §5). The records the
 * security scans found (SSH logins, runs of failed passwords, an SSH service answering on a stock miner), suspicious
 * first, counted per status (the counts filter), searched by IP or SN, paged in the database; a row opens what the
 * scan saw. With the page's operation key: scan now (whole farm or a range; S19 and newer, online), mark processed (the
 * miner returns to normal), reboot a range (a batch reboot with live progress). A running scan shows its progress;
 * the history tab lists every scan and what it found.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Badge, Button, Group, Progress, Select, Stack, Tabs, Text } from '@mantine/core';
import { IconHistory, IconPower, IconRadar, IconShieldCheck, IconShieldExclamation } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import { findMenuByKey } from '@shared/menu-catalogue';
import { SECURITY_AUTO_SCAN_HOURS, SECURITY_RECORD_STATUSES, type SecurityRecordRow, type SecurityRecordStatus, type SecurityScanRow } from '@shared/schemas/security';
import { CountFilter } from '@client/components/count-filter';
import { DataTable } from '@client/components/data-table/data-table';
import type { Column } from '@client/components/data-table/data-table-types';
import { queryTableState } from '@client/components/data-table/query-state';
import { usePagedList } from '@client/components/data-table/use-paged-list';
import { NoFarmState } from '@client/components/no-farm-state';
import { PageHeader } from '@client/components/page-header';
import { SearchForm } from '@client/components/search-form';
import { useAgentKey } from '@client/lib/agent-key';
import { usePermissions } from '@client/lib/session-api';
import { notifyFailure } from '@client/lib/feedback';
import { securityKeys, useSaveSecuritySettings, useSecurityRecords, useSecurityScans, useSecuritySettings } from '../api/security-api';
import { ProcessDialog, RebootDialog, RecordDrawer, ScanDialog } from '../components/security-dialogs';
import { describeSecurity } from '../lib/describe';

const OPERATE = findMenuByKey('abnormalAlarms')?.operation ?? -1;
const STATUS_COLOR: Record<SecurityRecordStatus, string> = { suspicious: 'red', processed: 'green' };

export function SecurityAlarmsPage() {
  const { t } = useTranslation('security');
  const agentKey = useAgentKey();
  const [tab, setTab] = useState<string | null>('records');
  if (!agentKey) {
    return (
      <Stack gap="md">
        <PageHeader title={t('title')} />
        <NoFarmState />
      </Stack>
    );
  }
  return (
    <Stack gap="md" data-testid="security-page">
      <PageHeader title={t('title')} description={t('description')} actions={<AutoScan agentKey={agentKey} />} />
      <RunningScan agentKey={agentKey} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="records" leftSection={<IconShieldExclamation size={16} />} data-testid="security-tab-records">
            {t('tabs.records')}
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconHistory size={16} />} data-testid="security-tab-history">
            {t('tabs.history')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="records" pt="sm">
          <Records agentKey={agentKey} />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="sm">
          <ScanHistory agentKey={agentKey} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** Automatic scans (off, daily, weekly) and when the next one is due; the page's operation key changes them. */
function AutoScan({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('security');
  const canOperate = usePermissions().has(OPERATE);
  const settings = useSecuritySettings(agentKey);
  const save = useSaveSecuritySettings(agentKey);
  const s = settings.data;
  if (!s) return null;
  return (
    <Stack gap={2} data-testid="security-auto">
      <Select
        size="xs"
        w={200}
        label={t('auto.label')}
        data={SECURITY_AUTO_SCAN_HOURS.map((h) => ({ value: String(h), label: t(`auto.every.${h}`) }))}
        value={String(s.autoScanHours)}
        onChange={(v) => v !== null && save.mutate(Number(v), { onError: (e) => notifyFailure(e, t('failed')) })}
        disabled={!canOperate || save.isPending}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        data-testid="security-auto-select"
      />
      <Text size="xs" c="dimmed" data-testid="security-auto-next">
        {s.nextScanAt ? t('auto.next', { at: formatDate(s.nextScanAt) }) : t('auto.off')}
      </Text>
    </Stack>
  );
}

/** The latest scan while it is queued or running: how far it is; when it ends, the records are asked again. */
function RunningScan({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('security');
  const qc = useQueryClient();
  const scans = useSecurityScans(agentKey, 1);
  const latest = scans.data?.list[0];
  const running = latest && latest.status !== 'done' ? latest : null;
  const wasRunning = useRef<string | null>(null);
  useEffect(() => {
    if (running) wasRunning.current = running.taskId;
    else if (wasRunning.current) {
      wasRunning.current = null;
      void qc.invalidateQueries({ queryKey: securityKeys.all });
    }
  }, [running, qc]);
  if (!running) return null;
  return (
    <Alert color="blue" icon={<IconRadar size={18} />} title={t('running.title')} data-testid="security-running">
      <Stack gap={6}>
        <Text size="sm">{t(running.status === 'pending' ? 'running.queued' : 'running.progress', { done: formatNumber(running.done), total: formatNumber(running.targets) })}</Text>
        <Progress value={running.targets ? (100 * running.done) / running.targets : 0} animated aria-label={t('running.title')} />
      </Stack>
    </Alert>
  );
}

function Records({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('security');
  const perms = usePermissions();
  const canOperate = perms.has(OPERATE);
  const list = usePagedList<SecurityRecordStatus>();
  const { filter: status, search, selected, setSelected } = list;
  const [dialog, setDialog] = useState<'scan' | 'reboot' | 'process' | null>(null);
  const [processIds, setProcessIds] = useState<string[]>([]);
  const [open, setOpen] = useState<SecurityRecordRow | null>(null);
  const query = useSecurityRecords(agentKey, status, search, list.page, list.pageSize);
  const rows = useMemo(() => query.data?.list ?? [], [query.data]);
  const counts = query.data?.counts;

  const columns = useMemo<Column<SecurityRecordRow>[]>(
    () => [
      {
        key: 'ip',
        title: t('col.ip'),
        width: 140,
        render: (r) =>
          r.online === null ? (
            r.ip
          ) : (
            <Link to={`/device/miner/detail?ip=${encodeURIComponent(r.ip)}`} onClick={(e) => e.stopPropagation()}>
              {r.ip}
            </Link>
          ),
      },
      {
        key: 'status',
        title: t('col.status'),
        width: 120,
        render: (r) => (
          <Badge color={STATUS_COLOR[r.status]} variant="light" data-testid={`security-status-${r.status}`}>
            {t(`status.${r.status}`)}
          </Badge>
        ),
      },
      {
        key: 'description',
        title: t('col.description'),
        width: 380,
        render: (r) => (
          <Stack gap={0}>
            {describeSecurity(t, r).map((line) => (
              <Text key={line} size="xs" lineClamp={2}>
                {line}
              </Text>
            ))}
          </Stack>
        ),
      },
      {
        key: 'network',
        title: t('col.network'),
        width: 110,
        render: (r) => (
          <Badge color={r.online === null ? 'gray' : r.online ? 'green' : 'red'} variant="light">
            {r.online === null ? t('network.gone') : r.online ? t('network.online') : t('network.offline')}
          </Badge>
        ),
      },
      { key: 'sn', title: t('col.sn'), width: 190, render: (r) => r.sn || '-' },
      { key: 'model', title: t('col.model'), width: 130, render: (r) => r.model || '-' },
      { key: 'scanTime', title: t('col.scanTime'), width: 170, render: (r) => formatDate(r.scanTime) },
      { key: 'firstSeenAt', title: t('col.firstSeen'), width: 170, render: (r) => formatDate(r.firstSeenAt), defaultHidden: true },
      {
        key: 'processedAt',
        title: t('col.processedAt'),
        width: 200,
        render: (r) => (r.processedAt ? `${formatDate(r.processedAt)}${r.processedBy ? ` · ${r.processedBy}` : ''}` : '-'),
      },
      { key: 'processNote', title: t('col.note'), width: 200, render: (r) => r.processNote || '-' },
    ],
    [t],
  );

  const all = counts ? counts.suspicious + counts.processed : undefined;
  const startProcess = (ids: string[]) => {
    setProcessIds(ids);
    setDialog('process');
  };
  const toolbar = (
    <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
      <CountFilter<SecurityRecordStatus>
        testId="security-filter"
        value={status}
        onChange={list.setFilter}
        options={[
          { value: null, label: t('all'), count: all },
          ...SECURITY_RECORD_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`), count: counts?.[s], color: STATUS_COLOR[s] })),
        ]}
      />
      <Group gap="xs" wrap="wrap">
        <SearchForm placeholder={t('search')} testId="security-search" onSearch={list.setSearch} />
        {canOperate && (
          <>
            <Button size="xs" leftSection={<IconRadar size={14} />} onClick={() => setDialog('scan')} data-testid="security-scan">
              {t('scan.action')}
            </Button>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconShieldCheck size={14} />}
              disabled={selected.length === 0}
              onClick={() => startProcess(selected.map(String))}
              data-testid="security-process"
            >
              {t('process.action')}
              {selected.length > 0 ? ` (${selected.length})` : ''}
            </Button>
            <Button size="xs" variant="default" color="orange" leftSection={<IconPower size={14} />} onClick={() => setDialog('reboot')} data-testid="security-reboot">
              {t('reboot.action')}
            </Button>
          </>
        )}
      </Group>
    </Stack>
  );

  return (
    <>
      <DataTable<SecurityRecordRow>
        columns={columns}
        rows={rows}
        rowKey="id"
        prefKey="/alarm/security:records"
        {...queryTableState(query)}
        emptyText={search || status ? t('noMatch') : t('empty')}
        rowNumbers
        selection={canOperate ? { selectedKeys: selected, onChange: setSelected, isRowSelectable: (r) => r.status === 'suspicious' } : undefined}
        onRowClick={(r) => setOpen(r)}
        pagination={list.pagination(query.data?.total ?? 0)}
        toolbar={toolbar}
        ariaLabel={t('title')}
      />
      {open && <RecordDrawer row={open} onClose={() => setOpen(null)} onProcess={canOperate ? () => startProcess([open.id]) : undefined} />}
      {dialog === 'scan' && <ScanDialog agentKey={agentKey} onClose={() => setDialog(null)} />}
      {dialog === 'reboot' && <RebootDialog agentKey={agentKey} onClose={() => setDialog(null)} />}
      {dialog === 'process' && (
        <ProcessDialog
          agentKey={agentKey}
          ids={processIds}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            setSelected([]);
            setOpen(null);
          }}
        />
      )}
    </>
  );
}

function ScanHistory({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('security');
  const [page, setPage] = useState(1);
  const query = useSecurityScans(agentKey, page);
  const columns = useMemo<Column<SecurityScanRow>[]>(
    () => [
      { key: 'createdAt', title: t('history.createdAt'), width: 170, render: (r) => formatDate(r.createdAt) },
      { key: 'createdBy', title: t('history.createdBy'), width: 120, render: (r) => r.createdBy ?? t('history.automatic') },
      { key: 'scope', title: t('history.scope'), width: 220, render: (r) => (r.ipBegin && r.ipEnd ? `${r.ipBegin} – ${r.ipEnd}` : t('scan.wholeFarm')) },
      {
        key: 'status',
        title: t('history.status'),
        width: 120,
        render: (r) => (
          <Badge color={r.status === 'done' ? 'green' : 'blue'} variant="light">
            {t(`history.state.${r.status}`)}
          </Badge>
        ),
      },
      { key: 'targets', title: t('history.targets'), width: 100, align: 'right', render: (r) => formatNumber(r.targets) },
      { key: 'done', title: t('history.done'), width: 100, align: 'right', render: (r) => formatNumber(r.done) },
      { key: 'failed', title: t('history.failed'), width: 100, align: 'right', render: (r) => formatNumber(r.failed) },
      {
        key: 'found',
        title: t('history.found'),
        width: 110,
        align: 'right',
        render: (r) => (
          <Text size="sm" c={r.found > 0 ? 'red' : undefined} fw={r.found > 0 ? 600 : undefined} span>
            {formatNumber(r.found)}
          </Text>
        ),
      },
      { key: 'doneAt', title: t('history.doneAt'), width: 170, render: (r) => (r.doneAt ? formatDate(r.doneAt) : '-') },
    ],
    [t],
  );
  return (
    <DataTable<SecurityScanRow>
      columns={columns}
      rows={query.data?.list ?? []}
      rowKey="taskId"
      prefKey="/alarm/security:history"
      {...queryTableState(query)}
      emptyText={t('history.empty')}
      pagination={{ total: query.data?.total ?? 0, page, pageSize: 20, pageSizeOptions: [20], onChange: (p) => setPage(p) }}
      ariaLabel={t('tabs.history')}
    />
  );
}
