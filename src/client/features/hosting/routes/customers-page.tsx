import { useMemo, useState } from 'react';
import { formatDate } from '@shared/format/date';
import { Badge, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import type { Column } from '@client/components/data-table/data-table-types';
import { PageHeader } from '@client/components/page-header';
import { EditDeleteActions } from '@client/components/row-actions';
import { useAgentKey } from '@client/lib/agent-key';
import { confirmDeletion } from '@client/lib/feedback';
import { usePermissions } from '@client/lib/session-api';
import { formatNumber } from '@shared/format/number';
import { CUSTOMER_PERMISSION, type Customer } from '@shared/schemas/customer';
import { useCustomerList, useDeleteCustomer } from '../api/customers-api';
import { CustomerFormDialog } from '../components/customer-form-dialog';
import { priceLabel } from '../lib/customer-form';
import { NoFarmState } from '@client/components/no-farm-state';

type DialogState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; customer: Customer };
const EMPTY: readonly Customer[] = [];

/** /setting/customer: the farm's hosting customers with their electricity price and hosted miners (spec 2 §2). */
export function CustomersPage() {
  const { t } = useTranslation('customers');
  const agentKey = useAgentKey();
  const { has } = usePermissions();
  const canOperate = has(CUSTOMER_PERMISSION.operate);
  const list = useCustomerList(agentKey);
  const rows = list.data?.list ?? EMPTY;
  const { mutate: remove } = useDeleteCustomer();
  const [dialog, setDialog] = useState<DialogState>({ mode: 'closed' });

  const columns = useMemo<Column<Customer>[]>(() => {
    const confirmDelete = (c: Customer) =>
      confirmDeletion(t, t('delete.confirmBody', { name: c.name }), (done) => remove({ agentKey: c.agentKey, id: c.id }, done));
    const cols: Column<Customer>[] = [
      { key: 'name', title: t('columns.name'), width: 160 },
      { key: 'contract', title: t('columns.contract'), width: 130 },
      {
        key: 'contact',
        title: t('columns.contact'),
        width: 220,
        render: (c) => (
          <Text size="sm" lineClamp={2}>
            {[c.email, c.mobile.split(',').filter(Boolean).map((m, i) => `+${c.areaCode.split(',')[i] ?? '86'} ${m}`).join(', ')].filter(Boolean).join(', ') || '-'}
          </Text>
        ),
      },
      { key: 'electricPrice', title: t('columns.electricPrice'), width: 140, align: 'right', render: (c) => priceLabel(c.electricPrice, c.electricUnit) },
      {
        key: 'hosting',
        title: t('columns.hosting'),
        width: 260,
        render: (c) => (
          <Text size="sm" lineClamp={2}>
            {c.hostingResult.map((r) => `${r.type} ${r.coinType} ${formatNumber(r.hashRate)} ${r.hashRateUnit} × ${formatNumber(r.minerNum)}`).join('; ')}
          </Text>
        ),
      },
      { key: 'createdAt', title: t('columns.createdAt'), width: 170, render: (c) => formatDate(c.createdAt) },
    ];
    if (canOperate)
      cols.push({
        key: 'actions',
        title: t('columns.actions'),
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (c) => <EditDeleteActions t={t} subject={c.name} onEdit={() => setDialog({ mode: 'edit', customer: c })} onDelete={() => confirmDelete(c)} />,
      });
    return cols;
  }, [t, canOperate, remove]);

  const header = (
    <PageHeader
      title={t('list.title')}
      description={t('list.description')}
      actions={
        canOperate &&
        agentKey && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create' })} data-testid="customer-new">
            {t('list.add')}
          </Button>
        )
      }
    />
  );

  if (!agentKey)
    return (
      <Stack gap="md">
        {header}
        <NoFarmState />
      </Stack>
    );

  return (
    <Stack gap="md">
      {header}
      <DataTable<Customer>
        prefKey="/setting/customer"
        ariaLabel={t('list.title')}
        columns={columns}
        rows={rows}
        rowKey="id"
        rowNumbers
        {...queryTableState(list)}
        emptyText={t('list.empty')}
        toolbar={
          <Badge variant="light" size="lg" radius="sm" tt="none" data-testid="customer-total">
            {t('list.total', { count: list.data?.total ?? 0 })}
          </Badge>
        }
      />
      {canOperate && (
        <CustomerFormDialog
          opened={dialog.mode !== 'closed'}
          agentKey={agentKey}
          customer={dialog.mode === 'edit' ? dialog.customer : undefined}
          onClose={() => setDialog({ mode: 'closed' })}
        />
      )}
    </Stack>
  );
}
