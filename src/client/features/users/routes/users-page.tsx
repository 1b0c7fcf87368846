import { useMemo, useState } from 'react';
import { Badge, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import { DEFAULT_PAGE_SIZE, type Column } from '@client/components/data-table/data-table-types';
import { useCurrentUser, usePermissions } from '@client/lib/session-api';
import { formatDate } from '@shared/format/date';
import { PERMISSION } from '@shared/menu-catalogue';
import type { UserRow } from '@shared/schemas/access';
import { useUsers } from '../api/get-users';
import { useDeleteUser } from '../api/user-mutations';
import { PageHeader } from '@client/components/page-header';
import { EditDeleteActions } from '@client/components/row-actions';
import { UserFormDialog } from '../components/user-form-dialog';
import { confirmDeletion } from '@client/lib/feedback';

type DialogState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; user: UserRow };

/** /setting/user: users with their role and farms; actions need the operation key 66500. */
export function UsersPage() {
  const { t } = useTranslation('users');
  const { has } = usePermissions();
  const me = useCurrentUser();
  const canOperate = has(PERMISSION.userOperations);
  const [keywordInput, setKeywordInput] = useState('');
  const [keyword] = useDebouncedValue(keywordInput.trim(), 300);
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const users = useUsers({ ...paging, keyword });
  const { mutate: removeUser } = useDeleteUser();
  const [dialog, setDialog] = useState<DialogState>({ mode: 'closed' });
  const myId = me.data?.id;

  const columns = useMemo<Column<UserRow>[]>(() => {
    const confirmDelete = (row: UserRow) =>
      confirmDeletion(t, t('delete.confirmBody', { user: row.user }), (done) => removeUser(row.id, done));
    const cols: Column<UserRow>[] = [
      {
        key: 'user',
        title: t('columns.user'),
        width: 170,
        fixed: 'left',
        render: (r) => (
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500} truncate>
              {r.user}
            </Text>
            {r.id === myId && (
              <Badge size="xs" variant="light">
                {t('status.you')}
              </Badge>
            )}
          </Group>
        ),
      },
      {
        key: 'roleName',
        title: t('columns.role'),
        width: 150,
        render: (r) => (r.isAdmin ? <Badge variant="light" color="red" size="sm">{t('status.admin')}</Badge> : (r.roleName ?? '-')),
      },
      { key: 'email', title: t('columns.email'), width: 200, render: (r) => r.email ?? '-' },
      { key: 'mobile', title: t('columns.mobile'), width: 150, render: (r) => (r.mobile ? `+${r.areaCode} ${r.mobile}` : '-') },
      {
        key: 'agentKeys',
        title: t('columns.farms'),
        width: 200,
        render: (r) =>
          r.agentKeys.length === 0 ? (
            '-'
          ) : (
            <Tooltip label={r.agentKeys.join(', ')} withArrow multiline maw={320}>
              <Text size="sm" truncate>
                {r.agentKeys.join(', ')}
              </Text>
            </Tooltip>
          ),
      },
      {
        key: 'disabled',
        title: t('columns.status'),
        width: 100,
        render: (r) => (
          <Badge variant="light" size="sm" color={r.disabled ? 'gray' : 'green'}>
            {r.disabled ? t('status.disabled') : t('status.enabled')}
          </Badge>
        ),
      },
      { key: 'lastLoginAt', title: t('columns.lastLogin'), width: 170, render: (r) => formatDate(r.lastLoginAt) },
      { key: 'createdAt', title: t('columns.created'), width: 170, render: (r) => formatDate(r.createdAt) },
    ];
    if (canOperate) {
      cols.push({
        key: 'actions',
        title: t('columns.actions'),
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (r) => (
          <EditDeleteActions t={t} subject={r.user} onEdit={() => setDialog({ mode: 'edit', user: r })} onDelete={() => confirmDelete(r)} deleteDisabled={r.id === myId} />
        ),
      });
    }
    return cols;
  }, [t, canOperate, myId, removeUser]);

  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          canOperate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create' })} data-testid="user-new">
              {t('list.new')}
            </Button>
          )
        }
      />
      <DataTable<UserRow>
        prefKey="/setting/user"
        ariaLabel={t('list.title')}
        columns={columns}
        rows={users.data?.list ?? []}
        rowKey="id"
        {...queryTableState(users)}
        emptyText={keyword ? t('list.emptySearch', { keyword }) : t('list.empty')}
        toolbar={
          <TextInput
            leftSection={<IconSearch size={16} />}
            placeholder={t('list.search')}
            aria-label={t('list.search')}
            type="search"
            value={keywordInput}
            onChange={(e) => {
              setKeywordInput(e.currentTarget.value);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
            w={{ base: '100%', sm: 320 }}
          />
        }
        pagination={{
          total: users.data?.total ?? 0,
          page: paging.page,
          pageSize: paging.pageSize,
          onChange: (page, pageSize) => setPaging({ page, pageSize }),
        }}
      />
      <UserFormDialog opened={dialog.mode !== 'closed'} user={dialog.mode === 'edit' ? dialog.user : undefined} onClose={() => setDialog({ mode: 'closed' })} />
    </Stack>
  );
}
