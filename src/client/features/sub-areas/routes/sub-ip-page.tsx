import { useMemo, useState } from 'react';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconSitemap, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataTable } from '@client/components/data-table/data-table';
import type { Column, RowKey } from '@client/components/data-table/data-table-types';
import { queryTableState } from '@client/components/data-table/query-state';
import { PageHeader } from '@client/components/page-header';
import { EditDeleteActions } from '@client/components/row-actions';
import { useAgentKey } from '@client/lib/agent-key';
import { confirmDeletion } from '@client/lib/feedback';
import { usePermissions } from '@client/lib/session-api';
import { formatNumber } from '@shared/format/number';
import { SUB_AREA_PERMISSION, SUB_IP_PERMISSION, type SubIpSegment } from '@shared/schemas/sub-areas';
import { useDeleteSubIps, useSubAreas, useSubIps } from '../api/sub-areas-api';
import { SubIpDialog } from '../components/sub-ip-dialog';
import { NoFarmState } from '@client/components/no-farm-state';

type DialogState = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; segment: SubIpSegment };

/** /setting/agent/subIp: IP segments assigned to leaf sub-areas; a miner belongs to the area whose segment holds its IP. */
export function SubIpPage() {
  const { t } = useTranslation('sub-areas');
  const agentKey = useAgentKey();
  const { has } = usePermissions();
  const canOperate = has(SUB_IP_PERMISSION.operate);
  const [areaId, setAreaId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const [selected, setSelected] = useState<RowKey[]>([]);
  const [dialog, setDialog] = useState<DialogState>({ mode: 'closed' });
  const areas = useSubAreas(agentKey);
  const segments = useSubIps(agentKey, areaId, page, pageSize);
  const remove = useDeleteSubIps();
  const areaList = useMemo(() => areas.data ?? [], [areas.data]);
  const rows = segments.data?.list ?? [];

  const columns = useMemo<Column<SubIpSegment>[]>(() => {
    const cols: Column<SubIpSegment>[] = [
      { key: 'segment', title: t('subIp.columns.segment'), width: 190, render: (r) => <Text size="sm" ff="monospace">{r.segment}</Text> },
      { key: 'areaPath', title: t('subIp.columns.area'), width: 240, render: (r) => <Text size="sm" lineClamp={1} title={r.areaPath}>{r.areaPath}</Text> },
      { key: 'range', title: t('subIp.columns.range'), width: 240, render: (r) => <Text size="sm" ff="monospace">{`${r.ipBegin} – ${r.ipEnd}`}</Text> },
      { key: 'amount', title: t('subIp.columns.amount'), width: 100, align: 'right', render: (r) => formatNumber(r.amount) },
      { key: 'minerCount', title: t('subIp.columns.miners'), width: 100, align: 'right', render: (r) => formatNumber(r.minerCount) },
      { key: 'remark', title: t('subIp.columns.remark'), width: 180, render: (r) => r.remark || '-' },
    ];
    if (canOperate && agentKey) {
      cols.push({
        key: 'actions',
        title: t('subIp.columns.actions'),
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (r) => (
          <EditDeleteActions
            t={t}
            subject={r.segment}
            onEdit={() => setDialog({ mode: 'edit', segment: r })}
            onDelete={() => confirmDeletion(t, t('subIp.deleteBody', { segment: r.segment }), (done) => remove.mutate({ agentKey, ids: [r.id] }, done), { title: t('subIp.deleteTitle') })}
          />
        ),
      });
    }
    return cols;
  }, [t, canOperate, agentKey, remove]);

  const header = (
    <PageHeader
      title={t('subIp.title')}
      description={t('subIp.description')}
      actions={
        agentKey && (
          <>
            {has(SUB_AREA_PERMISSION.view) && (
              <Button component={Link} to="/setting/agent/subArea" variant="default" leftSection={<IconSitemap size={16} />}>
                {t('subIp.toAreas')}
              </Button>
            )}
            {canOperate && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'add' })} data-testid="sub-ip-add">
                {t('subIp.add')}
              </Button>
            )}
          </>
        )
      }
    />
  );

  if (!agentKey) {
    return (
      <Stack gap="md">
        {header}
        <NoFarmState />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {header}
      <DataTable<SubIpSegment>
        prefKey="/setting/agent/subIp"
        ariaLabel={t('subIp.title')}
        columns={columns}
        rows={rows}
        rowKey="id"
        rowNumbers
        {...queryTableState(segments)}
        selection={canOperate ? { selectedKeys: selected, onChange: setSelected } : undefined}
        pagination={{
          total: segments.data?.total ?? 0,
          page,
          pageSize,
          onChange: (p, s) => {
            setPage(p);
            setPageSize(s);
          },
        }}
        emptyText={
          <Stack gap={6} align="center" py="sm">
            <Text fw={500}>{t('subIp.empty')}</Text>
            <Text size="sm" c="dimmed" ta="center">
              {areaList.length === 0 ? t('subIp.emptyNoAreas') : t('subIp.emptyHelp')}
            </Text>
          </Stack>
        }
        toolbar={
          <Group gap="xs" wrap="wrap">
            <Select
              size="xs"
              w={{ base: '100%', xs: 260 }}
              placeholder={t('subIp.allAreas')}
              aria-label={t('subIp.filterArea')}
              clearable
              searchable
              data={areaList.map((a) => ({ value: String(a.id), label: a.path.join(' / ') }))}
              value={areaId ? String(areaId) : null}
              onChange={(v) => {
                setAreaId(v ? Number(v) : null);
                setPage(1);
                setSelected([]);
              }}
              data-testid="sub-ip-filter"
            />
            {canOperate && (
              <Button
                size="xs"
                color="red"
                variant="light"
                leftSection={<IconTrash size={14} />}
                disabled={selected.length === 0}
                loading={remove.isPending}
                onClick={() =>
                  confirmDeletion(t, t('subIp.deleteManyBody', { count: selected.length }), (done) => remove.mutate({ agentKey, ids: selected.map(String) }, done), {
                    title: t('subIp.deleteTitle'),
                    onDeleted: () => setSelected([]),
                  })
                }
              >
                {t('subIp.deleteSelected', { count: selected.length })}
              </Button>
            )}
          </Group>
        }
      />
      {canOperate && (
        <SubIpDialog
          opened={dialog.mode !== 'closed'}
          agentKey={agentKey}
          areas={areaList}
          segment={dialog.mode === 'edit' ? dialog.segment : undefined}
          defaultAreaId={areaId}
          onClose={() => setDialog({ mode: 'closed' })}
        />
      )}
    </Stack>
  );
}
