import { useMemo, useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconEye, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import type { Column } from '@client/components/data-table/data-table-types';
import { usePermissions } from '@client/lib/session-api';
import { formatDate } from '@shared/format/date';
import { PERMISSION } from '@shared/menu-catalogue';
import type { RoleRow } from '@shared/schemas/access';
import { useDeleteRole, useRoles } from '../api/roles';
import { PageHeader } from '@client/components/page-header';
import { EditDeleteActions, RowAction, RowActions } from '@client/components/row-actions';
import { RoleFormDialog } from '../components/role-form-dialog';
import { confirmDeletion } from '@client/lib/feedback';
import { countPages } from '../lib/permission-matrix';

type DialogState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; role: RoleRow };

/** /setting/role: roles and their permission matrices; actions need the operation key 65500. */
export function RolesPage() {
  const { t } = useTranslation('roles');
  const { has } = usePermissions();
  const canOperate = has(PERMISSION.roleOperations);
  const roles = useRoles();
  const { mutate: removeRole } = useDeleteRole();
  const [dialog, setDialog] = useState<DialogState>({ mode: 'closed' });

  const columns = useMemo<Column<RoleRow>[]>(() => {
    const confirmDelete = (row: RoleRow) =>
      // The server refuses a role still assigned to users: its message is shown.
      confirmDeletion(t, t('delete.confirmBody', { name: row.name }), (done) => removeRole(row.id, done));
    const cols: Column<RoleRow>[] = [
      {
        key: 'name',
        title: t('columns.name'),
        width: 200,
        fixed: 'left',
        render: (r) => (
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500} truncate>
              {r.name}
            </Text>
            {r.builtin && (
              <Badge size="xs" variant="light" color="gray">
                {t('status.builtin')}
              </Badge>
            )}
          </Group>
        ),
      },
      { key: 'remark', title: t('columns.remark'), width: 240, render: (r) => <Text size="sm" truncate>{r.remark || '-'}</Text> },
      {
        key: 'permissions',
        title: t('columns.permissions'),
        width: 170,
        render: (r) => {
          const c = countPages(r.permissions);
          return t('status.pages', { view: c.view, operate: c.operate });
        },
      },
      { key: 'userCount', title: t('columns.users'), width: 90, align: 'right' },
      { key: 'createdAt', title: t('columns.created'), width: 170, render: (r) => formatDate(r.createdAt) },
      {
        key: 'actions',
        title: t('columns.actions'),
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (r) =>
          r.builtin || !canOperate ? (
            <RowActions>
              <RowAction text={t('actions.view')} subject={r.name} icon={<IconEye size={16} />} onClick={() => setDialog({ mode: 'edit', role: r })} />
            </RowActions>
          ) : (
            <EditDeleteActions t={t} subject={r.name} onEdit={() => setDialog({ mode: 'edit', role: r })} onDelete={() => confirmDelete(r)} />
          ),
      },
    ];
    return cols;
  }, [t, canOperate, removeRole]);

  const editing = dialog.mode === 'edit' ? dialog.role : undefined;

  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          canOperate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create' })} data-testid="role-new">
              {t('list.new')}
            </Button>
          )
        }
      />
      <DataTable<RoleRow>
        prefKey="/setting/role"
        ariaLabel={t('list.title')}
        columns={columns}
        rows={roles.data ?? []}
        rowKey="id"
        {...queryTableState(roles)}
        emptyText={t('list.empty')}
      />
      <RoleFormDialog
        opened={dialog.mode !== 'closed'}
        role={editing}
        readOnly={!canOperate}
        onClose={() => setDialog({ mode: 'closed' })}
      />
    </Stack>
  );
}
