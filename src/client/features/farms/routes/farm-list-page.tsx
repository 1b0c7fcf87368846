import { useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Code, Menu, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconKey, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import type { Column } from '@client/components/data-table/data-table-types';
import { DEFAULT_PAGE_SIZE } from '@client/components/data-table/data-table-types';
import { usePermissions } from '@client/lib/session-api';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import { PERMISSION } from '@shared/menu-catalogue';
import type { FarmInfo, FarmRow } from '@shared/schemas/farm';
import { useDeleteFarm } from '../api/farm-mutations';
import { useFarms } from '../api/get-farms';
import { FarmFormDialog } from '../components/farm-form-dialog';
import { FarmStatusCell } from '../components/farm-status-cell';
import { PageHeader } from '@client/components/page-header';
import { useRotateSecret } from '../components/use-rotate-secret';
import { farmRowToInfo } from '../lib/farm-row';
import { confirmDeletion } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';

type DialogState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; farm: FarmInfo };

/** /agents: every farm of the user, with create, edit, delete and agent-secret rotation. */
export function FarmListPage() {
  const { t } = useTranslation('farms');
  const { has } = usePermissions();
  const canOperate = has(PERMISSION.farmOperations);
  const phone = usePhone();
  const [keywordInput, setKeywordInput] = useState('');
  const [keyword] = useDebouncedValue(keywordInput.trim(), 300);
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const query = { page: paging.page, pageSize: paging.pageSize, keyword };
  const farms = useFarms(query);
  const [dialog, setDialog] = useState<DialogState>({ mode: 'closed' });
  const rotation = useRotateSecret();
  const { mutate: removeFarm } = useDeleteFarm();
  const startRotation = rotation.start;

  const columns = useMemo<Column<FarmRow>[]>(() => {
    const confirmDelete = (row: FarmRow) =>
      confirmDeletion(t, t('delete.confirmBody', { name: row.agentName, agentKey: row.agentKey }), (done) => removeFarm(row.agentKey, done));
    const cols: Column<FarmRow>[] = [
      { key: 'agentName', title: t('columns.name'), width: 180, fixed: 'left', render: (r) => <Text size="sm" fw={500}>{r.agentName}</Text> },
      { key: 'agentKey', title: t('columns.agentKey'), width: 160, render: (r) => <Code>{r.agentKey}</Code> },
      {
        key: 'status',
        title: t('columns.status'),
        // 170, not 150: the badge "НЕ ПОДКЛЮЧАЛСЯ" was cut.
        width: 170,
        render: (r) => <FarmStatusCell isOnline={r.isOnline} netDelay={r.netDelay} lastOnlineAt={r.lastOnlineAt} />,
      },
      { key: 'lastOnlineAt', title: t('columns.lastOnline'), width: 170, render: (r) => formatDate(r.lastOnlineAt) },
      { key: 'version', title: t('columns.version'), width: 100, render: (r) => r.version ?? '-' },
      { key: 'minerCount', title: t('columns.miners'), width: 100, align: 'right', render: (r) => formatNumber(r.minerCount) },
      {
        key: 'selfManaged',
        title: t('columns.selfManaged'),
        width: 100,
        render: (r) => (
          <Badge variant="light" size="sm" color={r.selfManaged ? 'grape' : 'blue'}>
            {r.selfManaged ? t('status.selfRun') : t('status.hosting')}
          </Badge>
        ),
      },
      { key: 'noticeEmails', title: t('columns.noticeEmails'), width: 220, render: (r) => <Text size="sm" lineClamp={1} style={{ wordBreak: 'break-all' }}>{r.noticeEmails ? r.noticeEmails.split(',').join(', ') : '-'}</Text> },
      { key: 'agentAddr', title: t('columns.remark'), width: 200, render: (r) => <Text size="sm" lineClamp={1}>{r.agentAddr || '-'}</Text> },
      { key: 'createdAt', title: t('columns.created'), width: 170, render: (r) => formatDate(r.createdAt) },
    ];
    if (canOperate) {
      cols.push({
        key: 'actions',
        title: t('columns.actions'),
        // 100, not 80: the title "Действия" was cut to "Дейст…".
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (r) => (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size={phone ? 'lg' : undefined} aria-label={`${t('actions.more')}: ${r.agentName}`} data-testid={`farm-actions-${r.agentKey}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setDialog({ mode: 'edit', farm: farmRowToInfo(r) })}>
                {t('actions.edit')}
              </Menu.Item>
              <Menu.Item leftSection={<IconKey size={16} />} onClick={() => startRotation(r.agentKey)}>
                {t('actions.rotate')}
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => confirmDelete(r)}>
                {t('actions.delete')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ),
      });
    }
    return cols;
  }, [t, canOperate, removeFarm, startRotation, phone]);

  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          canOperate && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ mode: 'create' })} data-testid="farm-new">
              {t('list.new')}
            </Button>
          )
        }
      />
      <DataTable<FarmRow>
        prefKey="/agents"
        ariaLabel={t('list.title')}
        columns={columns}
        rows={farms.data?.list ?? []}
        rowKey="agentKey"
        {...queryTableState(farms)}
        emptyText={
          keyword ? (
            t('list.emptySearch', { keyword })
          ) : (
            <Stack gap={6} align="center" py="sm">
              <Text fw={500}>{t('list.empty')}</Text>
              <Text size="sm" c="dimmed" ta="center">
                {t('list.emptyHelp')}
              </Text>
              {canOperate && (
                // A tap target of at least 32 px on a phone (xs is 30 px).
                <Button size={phone ? 'sm' : 'xs'} variant="light" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ mode: 'create' })}>
                  {t('list.new')}
                </Button>
              )}
            </Stack>
          )
        }
        toolbar={
          <TextInput
            leftSection={<IconSearch size={16} />}
            placeholder={t('list.search')}
            aria-label={t('list.search')}
            value={keywordInput}
            onChange={(e) => {
              setKeywordInput(e.currentTarget.value);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
            w={{ base: '100%', sm: 320 }}
            type="search"
            data-testid="farm-search"
          />
        }
        pagination={{
          total: farms.data?.total ?? 0,
          page: paging.page,
          pageSize: paging.pageSize,
          onChange: (page, pageSize) => setPaging({ page, pageSize }),
        }}
      />
      <FarmFormDialog
        opened={dialog.mode !== 'closed'}
        farm={dialog.mode === 'edit' ? dialog.farm : undefined}
        onClose={() => setDialog({ mode: 'closed' })}
      />
      {rotation.dialog}
    </Stack>
  );
}
