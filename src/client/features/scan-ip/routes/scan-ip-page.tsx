import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconListDetails, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import type { Column, RowKey } from '@client/components/data-table/data-table-types';
import { useAgentKey } from '@client/lib/agent-key';
import { usePermissions } from '@client/lib/session-api';
import { formatNumber } from '@shared/format/number';
import { SCAN_IP_PERMISSION, type ScanIpRange } from '@shared/schemas/scan-ip';
import { useDeleteScanIp, useScanIpList } from '../api/scan-ip';
import { PageHeader } from '@client/components/page-header';
import { EditDeleteActions } from '@client/components/row-actions';
import { ScanIpBatchDialog } from '../components/scan-ip-batch-dialog';
import { ScanIpFormDialog } from '../components/scan-ip-form-dialog';
import { confirmDeletion } from '@client/lib/feedback';
import { NoFarmState } from '@client/components/no-farm-state';
import { usePhone } from '@client/lib/use-phone';

type DialogState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; range: ScanIpRange } | { mode: 'batch' };

const EMPTY: readonly ScanIpRange[] = [];

/** /setting/agent/ip: the IP ranges the current farm's agent scans to find miners (spec 2 §2). */
export function ScanIpPage() {
  const { t } = useTranslation('scan-ip');
  const agentKey = useAgentKey();
  const { has } = usePermissions();
  const canOperate = has(SCAN_IP_PERMISSION.operate);
  const ranges = useScanIpList(agentKey);
  const rows = ranges.data ?? EMPTY;
  const { mutate: removeRanges, isPending: deleting } = useDeleteScanIp();
  const [dialog, setDialog] = useState<DialogState>({ mode: 'closed' });
  const [selected, setSelected] = useState<RowKey[]>([]);
  const phone = usePhone();

  // Forget selected rows that are gone (deleted elsewhere, or another farm chosen).
  useEffect(() => {
    setSelected((keys) => {
      const present = keys.filter((k) => rows.some((r) => r.id === k));
      return present.length === keys.length ? keys : present;
    });
  }, [rows]);

  const totalAmount = rows.reduce((sum, r) => sum + r.amount, 0);

  const columns = useMemo<Column<ScanIpRange>[]>(() => {
    const confirmDelete = (range: ScanIpRange) =>
      confirmDeletion(t, t('delete.confirmBody', { ipBegin: range.ipBegin, ipEnd: range.ipEnd }), (done) => removeRanges({ agentKey: range.agentKey, ids: [range.id] }, done));
    // At phone width five columns do not fit 360 px: the end address and the count were off screen. One cell
    // holds the whole range there, with its number, address count and remark under it. The number has no column of
    // its own: with it (60 px at least) the range column ran under the pinned actions column, which hid its end.
    const phoneCols: Column<ScanIpRange>[] = [
      {
        key: 'range',
        title: t('columns.range'),
        width: 180,
        render: (r) => (
          <Stack gap={0} py={2} data-testid="scan-ip-range-cell">
            <Text size="sm" ff="monospace" style={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}>
              {r.ipBegin} – {r.ipEnd}
            </Text>
            {/* Two lines at most: the number and count take most of the first; the cell's nowrap would cut the remark. */}
            <Text size="xs" c="dimmed" lineClamp={2} title={r.remark || undefined} style={{ whiteSpace: 'normal' }}>
              {t('columns.rangeNo', { sortNo: r.sortNo })} · {t('columns.rangeAmount', { count: r.amount, amount: formatNumber(r.amount) })}
              {r.remark ? ` · ${r.remark}` : ''}
            </Text>
          </Stack>
        ),
      },
    ];
    const cols: Column<ScanIpRange>[] = phone ? phoneCols : [
      { key: 'sortNo', title: t('columns.sortNo'), width: 80, align: 'center' },
      { key: 'ipBegin', title: t('columns.ipBegin'), width: 150, render: (r) => <Text size="sm" ff="monospace">{r.ipBegin}</Text> },
      { key: 'ipEnd', title: t('columns.ipEnd'), width: 150, render: (r) => <Text size="sm" ff="monospace">{r.ipEnd}</Text> },
      { key: 'amount', title: t('columns.amount'), width: 110, align: 'right', render: (r) => formatNumber(r.amount) },
      { key: 'remark', title: t('columns.remark'), width: 220, render: (r) => <Text size="sm" lineClamp={1} title={r.remark}>{r.remark || '-'}</Text> },
    ];
    if (canOperate) {
      cols.push({
        key: 'actions',
        title: t('columns.actions'),
        // 100 on a phone too: the title "Действия" is cut at 84.
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (r) => <EditDeleteActions t={t} subject={`${r.ipBegin} – ${r.ipEnd}`} onEdit={() => setDialog({ mode: 'edit', range: r })} onDelete={() => confirmDelete(r)} />,
      });
    }
    return cols;
  }, [t, canOperate, removeRanges, phone]);

  const header = (
    <PageHeader
      title={t('list.title')}
      description={t('list.description')}
      actions={
        canOperate &&
        agentKey && (
          <>
            <Button variant="default" leftSection={<IconListDetails size={16} />} onClick={() => setDialog({ mode: 'batch' })} data-testid="scan-ip-batch">
              {t('list.batchAdd')}
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create' })} data-testid="scan-ip-new">
              {t('list.add')}
            </Button>
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

  const confirmBatchDelete = () => {
    const ids = selected.map(String);
    confirmDeletion(t, t('delete.batchBody', { count: ids.length }), (done) => removeRanges({ agentKey, ids }, done), {
      title: t('delete.batchTitle', { count: ids.length }),
      onDeleted: () => setSelected([]),
    });
  };

  return (
    <Stack gap="md">
      {header}
      <DataTable<ScanIpRange>
        prefKey={phone ? '/setting/agent/ip:phone' : '/setting/agent/ip'}
        ariaLabel={t('list.title')}
        columns={columns}
        rows={rows}
        rowKey="id"
        {...queryTableState(ranges)}
        selection={canOperate ? { selectedKeys: selected, onChange: setSelected } : undefined}
        emptyText={
          <Stack gap={6} align="center" py="sm">
            <Text fw={500}>{t('list.empty')}</Text>
            <Text size="sm" c="dimmed" ta="center">
              {t('list.emptyHelp')}
            </Text>
            {canOperate && (
              // Tap targets of at least 32 px on a phone (xs buttons are 30 px).
              <Group gap="xs" justify="center">
                <Button size={phone ? 'sm' : 'xs'} variant="light" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ mode: 'create' })}>
                  {t('list.add')}
                </Button>
                <Button size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconListDetails size={14} />} onClick={() => setDialog({ mode: 'batch' })}>
                  {t('list.batchAdd')}
                </Button>
              </Group>
            )}
          </Stack>
        }
        toolbar={
          <Group gap="xs" wrap="wrap">
            <Badge variant="light" size="lg" radius="sm" tt="none" data-testid="scan-ip-total">
              {t('list.total', { count: rows.length, amount: formatNumber(totalAmount) })}
            </Badge>
            {canOperate && (
              <Button
                // A tap target of at least 32 px on a phone (xs is 30 px).
                size={phone ? 'sm' : 'xs'}
                color="red"
                variant="light"
                leftSection={<IconTrash size={14} />}
                disabled={selected.length === 0}
                loading={deleting}
                onClick={confirmBatchDelete}
                data-testid="scan-ip-delete-selected"
              >
                {t('list.deleteSelected', { count: selected.length })}
              </Button>
            )}
          </Group>
        }
      />
      {canOperate && (
        <>
          <ScanIpFormDialog
            opened={dialog.mode === 'create' || dialog.mode === 'edit'}
            agentKey={agentKey}
            range={dialog.mode === 'edit' ? dialog.range : undefined}
            onClose={() => setDialog({ mode: 'closed' })}
          />
          <ScanIpBatchDialog opened={dialog.mode === 'batch'} agentKey={agentKey} saved={rows} onClose={() => setDialog({ mode: 'closed' })} />
        </>
      )}
    </Stack>
  );
}
