import { useMemo, useState } from 'react';
import { Group, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import { DEFAULT_PAGE_SIZE, type Column } from '@client/components/data-table/data-table-types';
import { formatNumber } from '@shared/format/number';
import type { HostInfo } from '@shared/schemas/farm';
import { useHostInfoList } from '../api/get-host-info';
import { FarmStatusCell } from '../components/farm-status-cell';
import { useHostFormat } from '../components/use-host-format';
import { PageHeader } from '@client/components/page-header';
import { OverLimitWarning, SizingGuidance } from '../components/sizing-guidance';
import { hostDetailHref } from '../lib/host-format';
import { hostShortfalls, sizingAdvice } from '../lib/host-sizing';

/** /agents/hostInfo: the NUC of every farm, with the sizing guidance. */
export function HostInfoPage() {
  const { t } = useTranslation('farms');
  const navigate = useNavigate();
  const fmt = useHostFormat();
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const hosts = useHostInfoList(paging);

  const columns = useMemo<Column<HostInfo>[]>(
    () => [
      { key: 'agentName', title: t('columns.name'), width: 180, fixed: 'left', render: (r) => <Text size="sm" fw={500}>{r.agentName || r.agentKey}</Text> },
      // The status carries the network delay, coloured as the header's NUC indicator (no second delay column).
      // 170, not 150: the badge "НЕ ПОДКЛЮЧАЛСЯ" was cut.
      { key: 'status', title: t('columns.status'), width: 170, render: (r) => <FarmStatusCell isOnline={r.isOnline} netDelay={r.netDelay} lastOnlineAt={r.lastOnlineAt} /> },
      { key: 'version', title: t('columns.version'), width: 100, render: (r) => r.version ?? '-' },
      { key: 'hostname', title: t('host.hostname'), width: 160, render: (r) => r.hostname ?? '-' },
      { key: 'os', title: t('host.os'), width: 180, render: (r) => <Text size="sm" lineClamp={1}>{r.os ?? '-'}</Text> },
      {
        key: 'cpuCores',
        title: t('host.cpu'),
        width: 100,
        align: 'right',
        render: (r) => <ShortfallValue value={r.cpuCores === null ? '-' : String(r.cpuCores)} short={hostShortfalls(r).includes('cpu')} />,
      },
      {
        key: 'memoryMb',
        title: t('host.memory'),
        width: 110,
        align: 'right',
        render: (r) => <ShortfallValue value={fmt.gb(r.memoryMb)} short={hostShortfalls(r).includes('memory')} />,
      },
      // 180, not 110: the title "Свободно на диске" was cut to "Свободн…".
      { key: 'diskFreeMb', title: t('host.disk'), width: 180, align: 'right', render: (r) => fmt.gb(r.diskFreeMb) },
      { key: 'uptimeSec', title: t('host.uptime'), width: 140, render: (r) => fmt.uptime(r.uptimeSec) },
      { key: 'ip', title: t('host.ip'), width: 140, render: (r) => r.ip ?? '-' },
      {
        key: 'minerCount',
        title: t('columns.miners'),
        width: 110,
        align: 'right',
        render: (r) =>
          sizingAdvice(r.minerCount).overLimit ? (
            <Tooltip label={t('host.overLimit')} withArrow>
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <IconAlertTriangle size={14} color="var(--mantine-color-orange-6)" />
                <Text size="sm" c="orange" fw={600}>
                  {formatNumber(r.minerCount)}
                </Text>
              </Group>
            </Tooltip>
          ) : (
            formatNumber(r.minerCount)
          ),
      },
    ],
    [t, fmt],
  );

  return (
    <Stack gap="md">
      <PageHeader title={t('host.title')} description={t('host.description')} />
      <SizingGuidance />
      <OverLimitWarning farms={hosts.data?.list ?? []} />
      <DataTable<HostInfo>
        prefKey="/agents/hostInfo"
        ariaLabel={t('host.title')}
        columns={columns}
        rows={hosts.data?.list ?? []}
        rowKey="agentKey"
        {...queryTableState(hosts)}
        emptyText={t('host.empty')}
        onRowClick={(r) => void navigate(hostDetailHref(r.agentKey))}
        pagination={{
          total: hosts.data?.total ?? 0,
          page: paging.page,
          pageSize: paging.pageSize,
          onChange: (page, pageSize) => setPaging({ page, pageSize }),
        }}
      />
    </Stack>
  );
}

function ShortfallValue({ value, short }: { value: string; short: boolean }) {
  const { t } = useTranslation('farms');
  if (!short) return <>{value}</>;
  return (
    <Tooltip label={t('host.belowRecommended')} withArrow>
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <ThemeIcon size="xs" color="yellow" variant="transparent">
          <IconAlertTriangle size={14} />
        </ThemeIcon>
        <Text size="sm" c="yellow.8">
          {value}
        </Text>
      </Group>
    </Tooltip>
  );
}
