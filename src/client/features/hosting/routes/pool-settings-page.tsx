import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { formatDate } from '@shared/format/date';
import { Button, Stack, Tabs, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import type { Column } from '@client/components/data-table/data-table-types';
import { PageHeader } from '@client/components/page-header';
import { EditDeleteActions } from '@client/components/row-actions';
import { useAgentKey } from '@client/lib/agent-key';
import { confirmDeletion, type DeletionCallbacks } from '@client/lib/feedback';
import { usePermissions } from '@client/lib/session-api';
import { formatNumber } from '@shared/format/number';
import { POOL_PERMISSION, type PoolGroup, type PoolWhitelistEntry, type SubAccount } from '@shared/schemas/pool';
import { useDeletePoolGroup, useDeleteSubAccount, useDeleteWhitelist, usePoolGroups, useSubAccounts, useWhitelist } from '../api/pools-api';
import { PoolGroupDialog } from '../components/pool-group-dialog';
import { SubAccountDialog } from '../components/sub-account-dialog';
import { WhitelistDialog } from '../components/whitelist-dialog';
import { POOL_TABS, type PoolTab, tabFromLocation } from '../lib/pool-tabs';
import { NoFarmState } from '@client/components/no-farm-state';

type Dialog<T> = { open: false } | { open: true; row?: T };
const CLOSED = { open: false } as const;

function useConfirmDelete() {
  const { t } = useTranslation('pools');
  return useCallback((title: string, run: (done: DeletionCallbacks) => void) => confirmDeletion(t, t('delete.confirmBody', { name: title }), run), [t]);
}

const groupLabel = (g: PoolGroup) => g.name;
const subAccountLabel = (s: SubAccount) => s.accountName;
const whitelistLabel = (e: PoolWhitelistEntry) => e.poolUrls;

function rowActions(label: string, t: (k: string) => string, onEdit: () => void, onDelete: () => void): ReactNode {
  return <EditDeleteActions t={t} subject={label} onEdit={onEdit} onDelete={onDelete} />;
}

/**
 * One tab's table: the columns, then (with the operate permission) an actions column (edit, delete after a
 * confirmation), an add button and the tab's dialog for a new or the edited row.
 */
function EditableTable<T extends { id: number | string }>(props: {
  prefKey: string;
  ariaLabel: string;
  columns: Column<T>[];
  query: Parameters<typeof queryTableState>[0];
  rows: T[];
  emptyText: string;
  canOperate: boolean;
  addLabel: string;
  addTestId: string;
  /** the row's name in the delete confirmation and the action buttons' labels */
  label: (row: T) => string;
  remove: (row: T, done: DeletionCallbacks) => void;
  dialog: (opened: boolean, row: T | undefined, onClose: () => void) => ReactNode;
}) {
  const { t } = useTranslation('pools');
  const confirm = useConfirmDelete();
  const [dialog, setDialog] = useState<Dialog<T>>(CLOSED);
  const { columns, canOperate, label, remove } = props;
  const withActions = useMemo<Column<T>[]>(() => {
    if (!canOperate) return columns;
    const actions: Column<T> = {
      key: 'actions',
      title: t('columns.actions'),
      width: 100,
      align: 'center',
      fixed: 'right',
      render: (row) =>
        rowActions(
          label(row),
          t,
          () => setDialog({ open: true, row }),
          () => confirm(label(row), (done) => remove(row, done)),
        ),
    };
    return [...columns, actions];
  }, [t, canOperate, columns, label, remove, confirm]);
  return (
    <>
      <DataTable<T>
        prefKey={props.prefKey}
        ariaLabel={props.ariaLabel}
        columns={withActions}
        rows={props.rows}
        rowKey="id"
        rowNumbers
        {...queryTableState(props.query)}
        emptyText={props.emptyText}
        toolbar={
          canOperate && (
            <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ open: true })} data-testid={props.addTestId}>
              {props.addLabel}
            </Button>
          )
        }
      />
      {canOperate && props.dialog(dialog.open, dialog.open ? dialog.row : undefined, () => setDialog(CLOSED))}
    </>
  );
}

function GroupsTab({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('pools');
  const groups = usePoolGroups(agentKey);
  const subs = useSubAccounts(agentKey);
  const { mutate } = useDeletePoolGroup();
  const remove = useCallback((g: PoolGroup, done: DeletionCallbacks) => mutate({ agentKey, poolGroupId: g.id }, done), [mutate, agentKey]);
  const subName = useMemo(() => new Map((subs.data?.list ?? []).map((s) => [s.id, s.accountName])), [subs.data]);
  const columns = useMemo<Column<PoolGroup>[]>(() => {
    const pool = (g: PoolGroup, n: 1 | 2 | 3) => {
      const url = g[`pool${n}Url`];
      const sub = g[`subAccount${n}Id`];
      return url ? (
        <Text size="sm" lineClamp={2}>
          {url}
          {sub ? ` · ${subName.get(sub) ?? g[`pool${n}User`]}` : ''}
        </Text>
      ) : (
        '-'
      );
    };
    return [
      { key: 'name', title: t('group.name'), width: 150 },
      { key: 'customerName', title: t('group.customer'), width: 140 },
      { key: 'pool1', title: t('group.poolUrl', { n: 1 }), width: 260, render: (g) => pool(g, 1) },
      { key: 'pool2', title: t('group.poolUrl', { n: 2 }), width: 220, render: (g) => pool(g, 2) },
      { key: 'pool3', title: t('group.poolUrl', { n: 3 }), width: 220, render: (g) => pool(g, 3), defaultHidden: true },
      {
        key: 'hosting',
        title: t('group.hosting'),
        width: 240,
        render: (g) => (
          <Text size="sm" lineClamp={2}>
            {g.poolGroupHosting.map((r) => `${r.type} ${formatNumber(r.hashRate)} ${r.hashRateUnit} × ${formatNumber(r.minerNum)}`).join('; ')}
          </Text>
        ),
      },
      { key: 'createdAt', title: t('columns.createdAt'), width: 170, render: (g) => formatDate(g.createdAt) },
    ];
  }, [t, subName]);
  return (
    <Stack gap="sm">
      <EditableTable<PoolGroup>
        prefKey="/setting/agent/pool:groups"
        ariaLabel={t('tabs.groups')}
        columns={columns}
        query={groups}
        rows={groups.data ?? []}
        emptyText={t('group.empty')}
        canOperate={canOperate}
        addLabel={t('group.add')}
        addTestId="pool-group-new"
        label={groupLabel}
        remove={remove}
        dialog={(opened, row, onClose) => <PoolGroupDialog opened={opened} agentKey={agentKey} group={row} onClose={onClose} />}
      />
    </Stack>
  );
}

function SubAccountsTab({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('pools');
  const subs = useSubAccounts(agentKey);
  const { mutate } = useDeleteSubAccount();
  const remove = useCallback((s: SubAccount, done: DeletionCallbacks) => mutate({ agentKey, id: s.id }, done), [mutate, agentKey]);
  const columns = useMemo<Column<SubAccount>[]>(
    () => [
      { key: 'accountName', title: t('sub.accountName'), width: 160 },
      { key: 'poolName', title: t('sub.poolName'), width: 140 },
      { key: 'coinType', title: t('sub.coinType'), width: 90 },
      { key: 'observerUrl', title: t('sub.observerUrl'), width: 320, render: (s) => <Text size="sm" lineClamp={1} title={s.observerUrl}>{s.observerUrl}</Text> },
      { key: 'createdAt', title: t('columns.createdAt'), width: 170, render: (s) => formatDate(s.createdAt) },
    ],
    [t],
  );
  return (
    <Stack gap="sm">
      <EditableTable<SubAccount>
        prefKey="/setting/agent/pool:subAccounts"
        ariaLabel={t('tabs.subAccounts')}
        columns={columns}
        query={subs}
        rows={subs.data?.list ?? []}
        emptyText={t('sub.empty')}
        canOperate={canOperate}
        addLabel={t('sub.add')}
        addTestId="sub-account-new"
        label={subAccountLabel}
        remove={remove}
        dialog={(opened, row, onClose) => <SubAccountDialog opened={opened} agentKey={agentKey} subAccount={row} onClose={onClose} />}
      />
    </Stack>
  );
}

function WhitelistTab({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('pools');
  const list = useWhitelist(agentKey);
  const { mutate } = useDeleteWhitelist();
  const remove = useCallback((e: PoolWhitelistEntry, done: DeletionCallbacks) => mutate({ agentKey, id: e.id }, done), [mutate, agentKey]);
  const columns = useMemo<Column<PoolWhitelistEntry>[]>(
    () =>
      [1, 2, 3].map((n) => ({
        key: `pool${n}`,
        title: t('whitelist.poolUrl', { n }),
        width: 280,
        render: (e: PoolWhitelistEntry) => e.poolUrls.split(',')[n - 1] ?? '-',
      })),
    [t],
  );
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('whitelist.help')}
      </Text>
      <EditableTable<PoolWhitelistEntry>
        prefKey="/setting/agent/pool:whitelist"
        ariaLabel={t('tabs.whitelist')}
        columns={columns}
        query={list}
        rows={list.data ?? []}
        emptyText={t('whitelist.empty')}
        canOperate={canOperate}
        addLabel={t('whitelist.add')}
        addTestId="whitelist-new"
        label={whitelistLabel}
        remove={remove}
        dialog={(opened, row, onClose) => <WhitelistDialog opened={opened} agentKey={agentKey} entry={row} onClose={onClose} />}
      />
    </Stack>
  );
}

/** /setting/agent/pool: the farm's pool groups, sub-accounts and pool whitelist, one tab each (spec 2 §2). */
export function PoolSettingsPage() {
  const { t } = useTranslation('pools');
  const agentKey = useAgentKey();
  const { has } = usePermissions();
  const canOperate = has(POOL_PERMISSION.operate);
  const location = useLocation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const tab = tabFromLocation(location.pathname, search.get('tab'));
  const header = <PageHeader title={t('title')} description={t('description')} />;

  if (!agentKey)
    return (
      <Stack gap="md">
        {header}
        <NoFarmState />
      </Stack>
    );

  const select = (value: string | null) => {
    const next = POOL_TABS.find((x) => x === value) ?? 'groups';
    void navigate({ pathname: next === 'groups' ? '/setting/agent/pool' : `/setting/agent/pool/${next}` }, { replace: true });
  };
  const label: Record<PoolTab, string> = { groups: t('tabs.groups'), subAccounts: t('tabs.subAccounts'), whitelist: t('tabs.whitelist') };

  return (
    <Stack gap="md">
      {header}
      <Tabs value={tab} onChange={select} keepMounted={false}>
        <Tabs.List>
          {POOL_TABS.map((x) => (
            <Tabs.Tab key={x} value={x} data-testid={`pool-tab-${x}`}>
              {label[x]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="groups" pt="md">
          <GroupsTab agentKey={agentKey} canOperate={canOperate} />
        </Tabs.Panel>
        <Tabs.Panel value="subAccounts" pt="md">
          <SubAccountsTab agentKey={agentKey} canOperate={canOperate} />
        </Tabs.Panel>
        <Tabs.Panel value="whitelist" pt="md">
          <WhitelistTab agentKey={agentKey} canOperate={canOperate} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
