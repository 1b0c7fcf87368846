import { type ReactNode, useMemo, useState } from 'react';
import { ActionIcon, Button, EmptyState, Group, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { IconBuildingWarehouse, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import type { Column } from '@client/components/data-table/data-table-types';
import { PageHeader } from '@client/components/page-header';
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

type Dialog<T> = { open: false } | { open: true; row?: T };
const CLOSED = { open: false } as const;

function useConfirmDelete() {
  const { t } = useTranslation('pools');
  return (title: string, run: (done: DeletionCallbacks) => void) => confirmDeletion(t, t('delete.confirmBody', { name: title }), run);
}

function rowActions(label: string, t: (k: string) => string, onEdit: () => void, onDelete: () => void): ReactNode {
  return (
    <Group gap={4} justify="center" wrap="nowrap">
      <Tooltip label={t('actions.edit')} withArrow>
        <ActionIcon variant="subtle" aria-label={`${t('actions.edit')}: ${label}`} onClick={onEdit}>
          <IconPencil size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('actions.delete')} withArrow>
        <ActionIcon variant="subtle" color="red" aria-label={`${t('actions.delete')}: ${label}`} onClick={onDelete}>
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function GroupsTab({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('pools');
  const groups = usePoolGroups(agentKey);
  const subs = useSubAccounts(agentKey);
  const { mutate: remove } = useDeletePoolGroup();
  const confirm = useConfirmDelete();
  const [dialog, setDialog] = useState<Dialog<PoolGroup>>(CLOSED);
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
    const cols: Column<PoolGroup>[] = [
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
      { key: 'createdAt', title: t('columns.createdAt'), width: 170, render: (g) => new Date(g.createdAt).toLocaleString() },
    ];
    if (canOperate)
      cols.push({
        key: 'actions',
        title: t('columns.actions'),
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (g) =>
          rowActions(
            g.name,
            t,
            () => setDialog({ open: true, row: g }),
            () => confirm(g.name, (done) => remove({ agentKey, poolGroupId: g.id }, done)),
          ),
      });
    return cols;
  }, [t, canOperate, subName, confirm, remove, agentKey]);
  return (
    <Stack gap="sm">
      <DataTable<PoolGroup>
        prefKey="/setting/agent/pool:groups"
        ariaLabel={t('tabs.groups')}
        columns={columns}
        rows={groups.data ?? []}
        rowKey="id"
        rowNumbers
        {...queryTableState(groups)}
        emptyText={t('group.empty')}
        toolbar={
          canOperate && (
            <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ open: true })} data-testid="pool-group-new">
              {t('group.add')}
            </Button>
          )
        }
      />
      {canOperate && <PoolGroupDialog opened={dialog.open} agentKey={agentKey} group={dialog.open ? dialog.row : undefined} onClose={() => setDialog(CLOSED)} />}
    </Stack>
  );
}

function SubAccountsTab({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('pools');
  const subs = useSubAccounts(agentKey);
  const { mutate: remove } = useDeleteSubAccount();
  const confirm = useConfirmDelete();
  const [dialog, setDialog] = useState<Dialog<SubAccount>>(CLOSED);
  const columns = useMemo<Column<SubAccount>[]>(() => {
    const cols: Column<SubAccount>[] = [
      { key: 'accountName', title: t('sub.accountName'), width: 160 },
      { key: 'poolName', title: t('sub.poolName'), width: 140 },
      { key: 'coinType', title: t('sub.coinType'), width: 90 },
      { key: 'observerUrl', title: t('sub.observerUrl'), width: 320, render: (s) => <Text size="sm" lineClamp={1} title={s.observerUrl}>{s.observerUrl}</Text> },
      { key: 'createdAt', title: t('columns.createdAt'), width: 170, render: (s) => new Date(s.createdAt).toLocaleString() },
    ];
    if (canOperate)
      cols.push({
        key: 'actions',
        title: t('columns.actions'),
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (s) =>
          rowActions(
            s.accountName,
            t,
            () => setDialog({ open: true, row: s }),
            () => confirm(s.accountName, (done) => remove({ agentKey, id: s.id }, done)),
          ),
      });
    return cols;
  }, [t, canOperate, confirm, remove, agentKey]);
  return (
    <Stack gap="sm">
      <DataTable<SubAccount>
        prefKey="/setting/agent/pool:subAccounts"
        ariaLabel={t('tabs.subAccounts')}
        columns={columns}
        rows={subs.data?.list ?? []}
        rowKey="id"
        rowNumbers
        {...queryTableState(subs)}
        emptyText={t('sub.empty')}
        toolbar={
          canOperate && (
            <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ open: true })} data-testid="sub-account-new">
              {t('sub.add')}
            </Button>
          )
        }
      />
      {canOperate && <SubAccountDialog opened={dialog.open} agentKey={agentKey} subAccount={dialog.open ? dialog.row : undefined} onClose={() => setDialog(CLOSED)} />}
    </Stack>
  );
}

function WhitelistTab({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('pools');
  const list = useWhitelist(agentKey);
  const { mutate: remove } = useDeleteWhitelist();
  const confirm = useConfirmDelete();
  const [dialog, setDialog] = useState<Dialog<PoolWhitelistEntry>>(CLOSED);
  const columns = useMemo<Column<PoolWhitelistEntry>[]>(() => {
    const cols: Column<PoolWhitelistEntry>[] = [1, 2, 3].map((n) => ({
      key: `pool${n}`,
      title: t('whitelist.poolUrl', { n }),
      width: 280,
      render: (e: PoolWhitelistEntry) => e.poolUrls.split(',')[n - 1] ?? '-',
    }));
    if (canOperate)
      cols.push({
        key: 'actions',
        title: t('columns.actions'),
        width: 100,
        align: 'center',
        fixed: 'right',
        render: (e) =>
          rowActions(
            e.poolUrls,
            t,
            () => setDialog({ open: true, row: e }),
            () => confirm(e.poolUrls, (done) => remove({ agentKey, id: e.id }, done)),
          ),
      });
    return cols;
  }, [t, canOperate, confirm, remove, agentKey]);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('whitelist.help')}
      </Text>
      <DataTable<PoolWhitelistEntry>
        prefKey="/setting/agent/pool:whitelist"
        ariaLabel={t('tabs.whitelist')}
        columns={columns}
        rows={list.data ?? []}
        rowKey="id"
        rowNumbers
        {...queryTableState(list)}
        emptyText={t('whitelist.empty')}
        toolbar={
          canOperate && (
            <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ open: true })} data-testid="whitelist-new">
              {t('whitelist.add')}
            </Button>
          )
        }
      />
      {canOperate && <WhitelistDialog opened={dialog.open} agentKey={agentKey} entry={dialog.open ? dialog.row : undefined} onClose={() => setDialog(CLOSED)} />}
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
        <EmptyState icon={<IconBuildingWarehouse size={32} />} title={t('noFarm')} description={t('noFarmHelp')} withIndicatorBackground>
          <EmptyState.Actions>
            <Button component={Link} to="/agents">
              {t('toFarms')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
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
