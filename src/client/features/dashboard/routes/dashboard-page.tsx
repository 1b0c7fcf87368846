/**
 * Dashboard (/): the selected farm at a glance (spec 1 dashboard, issue 4 item 7): miner counters (each state
 * and fault kind, linking to the filtered list), farm hashrate real vs ideal over an hour / 30 days / a year,
 * today / 3 days / 1 week panels, temperatures, top faults, why miners are offline, the NUC (agent) status with
 * its computer, farm info, how to connect the agent if it never reported, quick links. A farm without miners points
 * to the scan IP ranges; with no farm at all: "create your first farm". Panels stack on a phone.
 */
import { Alert, Badge, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Table, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconBuildingFactory2, IconChevronRight, IconPlus, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PERMISSION, findMenuByKey, type MenuNode } from '@shared/menu-catalogue';
import { formatDate, isRecentDate } from '@shared/format/date';
import { useAgentKey } from '@client/lib/agent-key';
import { useFarmInfo, useNucStatus } from '@client/lib/farm-queries';
import { NUC_LEVEL_COLOR, nucLevel } from '@client/lib/nuc-status';
import { useCurrentUser, useFarmOptions, usePermissions, useSelfManage } from '@client/lib/session-api';
import { useShellActions } from '@client/lib/shell-actions';
import { AgentOfflineNotice } from '@client/components/agent-offline-notice';
import { MenuIcon } from '@client/components/menu-icon';
import { PageLoading } from '@client/components/page-loading';
import { formatNumber } from '@shared/format/number';
import { usePhone } from '@client/lib/use-phone';
import { ConnectAgentCard } from '../components/connect-agent-card';
import { CountersCard } from '../components/counters-card';
import { HashrateCard } from '../components/hashrate-card';
import { NoMinersCard } from '../components/no-miners-card';
import { OfflineReasonsCard } from '../components/offline-reasons-card';
import { PeriodPanels } from '../components/period-panels';
import { TemperatureCard } from '../components/temperature-card';
import { TopFaultsCard } from '../components/top-faults-card';
import { useDashboardHost, useDashboardSummary } from '../api/dashboard-api';

const SCAN_RANGES_KEY = findMenuByKey('scanIpRanges')?.permission ?? -1;
const SCAN_RANGES_OPERATE = findMenuByKey('scanIpRanges')?.operation ?? -1;

function flatten(nodes: MenuNode[]): MenuNode[] {
  return nodes.flatMap((n) => (n.routes.length > 0 ? flatten(n.routes) : [n]));
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={140} fw={500} c="dimmed" style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

function NoFarm() {
  const { t } = useTranslation('dashboard');
  const { openNewFarm } = useShellActions();
  const perms = usePermissions();
  const user = useCurrentUser();
  const canCreate = Boolean(user.data?.isAdmin) || perms.has(PERMISSION.farmOperations);
  return (
    <Center mih={420} data-testid="dashboard-empty">
      <Stack align="center" gap="sm" maw={440} ta="center">
        <ThemeIcon size={64} radius="xl" variant="light">
          <IconBuildingFactory2 size={36} />
        </ThemeIcon>
        <Title order={3}>{t('empty.title')}</Title>
        <Text c="dimmed">{canCreate ? t('empty.hint') : t('empty.askAdmin')}</Text>
        {canCreate && (
          <Button leftSection={<IconPlus size={16} />} onClick={openNewFarm} data-testid="dashboard-create-farm">
            {t('empty.create')}
          </Button>
        )}
      </Stack>
    </Center>
  );
}

function QuickLinks() {
  const { t } = useTranslation(['dashboard', 'menu', 'shell']);
  const { sections } = useShellActions();
  const links = flatten(sections).filter((n) => n.path !== '/');
  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="sm">{t('dashboard:links')}</Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs">
        {links.map((n) => (
          <UnstyledButton key={n.key} component={Link} to={n.path} p="sm" style={{ borderRadius: 8, border: '1px solid var(--mantine-color-default-border)' }} data-testid="quick-link">
            <Group gap="sm" wrap="nowrap">
              <ThemeIcon variant="light" size="md"><MenuIcon name={n.icon} size={18} /></ThemeIcon>
              <Text size="sm" style={{ flex: 1 }}>{t(`menu:${n.key}`)}</Text>
              <IconChevronRight size={16} color="var(--mantine-color-dimmed)" />
            </Group>
          </UnstyledButton>
        ))}
        <UnstyledButton component={Link} to="/user/center" p="sm" style={{ borderRadius: 8, border: '1px solid var(--mantine-color-default-border)' }}>
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon variant="light" size="md"><IconUserCircle size={18} /></ThemeIcon>
            <Text size="sm" style={{ flex: 1 }}>{t('shell:user.center')}</Text>
            <IconChevronRight size={16} color="var(--mantine-color-dimmed)" />
          </Group>
        </UnstyledButton>
      </SimpleGrid>
    </Card>
  );
}

function uptimeText(t: (k: string, o?: Record<string, unknown>) => string, sec: number | null): string {
  if (sec === null) return '-';
  const days = Math.floor(sec / 86_400);
  const hours = Math.floor((sec % 86_400) / 3600);
  return days > 0 ? t('dashboard:nuc.uptimeDays', { days, hours }) : t('dashboard:nuc.uptimeHours', { hours, minutes: Math.floor((sec % 3600) / 60) });
}

function NucCard({ agentKey, farmLastOnline, version }: { agentKey: string; farmLastOnline: string | null; version: string | null }) {
  const { t } = useTranslation(['dashboard', 'common']);
  const status = useNucStatus();
  const perms = usePermissions();
  const phone = usePhone();
  const host = useDashboardHost(agentKey, perms.has(PERMISSION.hostInfo));
  const nuc = status.data;
  const level = nucLevel(nuc);
  const neverConnected = nuc ? !nuc.lastOnlineAt && !nuc.isOnline : !farmLastOnline;
  const h = host.data;
  return (
    <Card withBorder padding="lg" data-testid="nuc-card">
      <Title order={4} mb="sm">{t('dashboard:nuc.title')}</Title>
      {!nuc && status.isPending ? (
        <Loader size="sm" />
      ) : !nuc && status.isError ? (
        <Alert color="red" data-testid="nuc-card-error">
          {t('dashboard:panel.failed')}
          <Button size={phone ? 'sm' : 'xs'} variant="light" ml="sm" onClick={() => void status.refetch()}>{t('dashboard:panel.retry')}</Button>
        </Alert>
      ) : (
        <Table withRowBorders={false} verticalSpacing={6} horizontalSpacing={0}>
          <Table.Tbody>
            <Row label={t('dashboard:nuc.state')}>
              <Badge color={nuc?.isOnline ? 'green' : neverConnected ? 'gray' : 'red'} variant="light" data-testid="dashboard-nuc-state">
                {nuc?.isOnline ? t('dashboard:nuc.online') : neverConnected ? t('dashboard:nuc.never') : t('dashboard:nuc.offline')}
              </Badge>
            </Row>
            <Row label={t('dashboard:nuc.lastOnline')}>
              <Text size="sm" c={nuc?.lastOnlineAt && isRecentDate(nuc.lastOnlineAt) ? undefined : 'dimmed'}>
                {formatDate(nuc?.lastOnlineAt ?? farmLastOnline ?? null)}
              </Text>
            </Row>
            <Row label={t('dashboard:nuc.delay')}>
              {nuc && nuc.isOnline && nuc.netDelay > 0 ? (
                <Badge variant="dot" tt="none" color={level === 'hidden' || level === 'dropped' ? 'gray' : NUC_LEVEL_COLOR[level]}>{nuc.netDelay} ms</Badge>
              ) : (
                <Text size="sm" c="dimmed">-</Text>
              )}
            </Row>
            <Row label={t('dashboard:farm.version')}>{version ?? '-'}</Row>
            {h && (
              <>
                <Row label={t('dashboard:nuc.host')}><span data-testid="dashboard-nuc-host">{h.hostname ?? '-'}{h.ip ? ` (${h.ip})` : ''}</span></Row>
                <Row label={t('dashboard:nuc.os')}>{h.os ?? '-'}</Row>
                <Row label={t('dashboard:nuc.machine')}>
                  {h.cpuCores !== null || h.memoryMb !== null
                    ? t('dashboard:nuc.machineValue', { cores: h.cpuCores ?? '-', memory: h.memoryMb === null ? '-' : formatNumber(h.memoryMb / 1024, 1), disk: h.diskFreeMb === null ? '-' : formatNumber(h.diskFreeMb / 1024, 0) })
                    : '-'}
                </Row>
                <Row label={t('dashboard:nuc.uptime')}>{uptimeText(t, h.uptimeSec)}</Row>
              </>
            )}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** Everything that needs the miners key (10000): counters, chart, panels, temperatures, faults, why miners are offline. */
function MinerFigures({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('dashboard');
  const perms = usePermissions();
  const summary = useDashboardSummary(agentKey);
  const noMiners = summary.data?.counters.total === 0;
  const canEditRanges = perms.has(SCAN_RANGES_KEY) && perms.has(SCAN_RANGES_OPERATE);
  const state = { pending: summary.isPending, error: summary.isError && !summary.data, onRetry: () => void summary.refetch() };

  return (
    <>
      {noMiners && <NoMinersCard canEditRanges={canEditRanges} />}
      {!noMiners && <CountersCard stat={summary.data?.counters} {...state} />}
      <HashrateCard agentKey={agentKey} noMiners={noMiners} />
      <div>
        <Title order={4} mb="sm">{t('period.title')}</Title>
        <PeriodPanels summary={summary.data} {...state} />
      </div>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <TemperatureCard summary={summary.data} {...state} />
        <Stack gap="md">
          <TopFaultsCard counters={summary.data?.counters} {...state} />
          {!noMiners && <OfflineReasonsCard counters={summary.data?.counters} {...state} />}
        </Stack>
      </SimpleGrid>
    </>
  );
}

export function DashboardPage() {
  const { t } = useTranslation(['dashboard', 'common']);
  const agentKey = useAgentKey();
  const farms = useFarmOptions();
  const info = useFarmInfo();
  const status = useNucStatus();
  const selfManage = useSelfManage();
  const perms = usePermissions();
  const phone = usePhone();

  if (farms.data && farms.data.length === 0) return <NoFarm />;
  if (!agentKey) return farms.isPending ? <PageLoading /> : <NoFarm />;
  if (info.isPending && !info.data) return <PageLoading />;

  const farm = info.data;
  const nuc = status.data;
  const neverConnected = nuc ? !nuc.lastOnlineAt && !nuc.isOnline : farm ? !farm.lastOnlineAt : false;
  const name = farm?.name ?? farms.data?.find((f) => f.value === agentKey)?.text ?? agentKey;

  return (
    <Stack gap="md" data-testid="dashboard-page">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed">{t('dashboard:overview')}</Text>
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }} data-testid="dashboard-farm-name">{name}</Title>
        </div>
        {selfManage.data !== undefined && (
          <Badge variant="light" color={selfManage.data ? 'grape' : 'blue'}>{selfManage.data ? t('dashboard:selfRun') : t('dashboard:hosting')}</Badge>
        )}
      </Group>

      {neverConnected && <ConnectAgentCard agentKey={agentKey} canOpenSettings={perms.has(PERMISSION.farmSettings)} />}
      <AgentOfflineNotice />

      {perms.has(PERMISSION.miners) ? (
        <MinerFigures agentKey={agentKey} />
      ) : (
        <Alert color="gray" data-testid="dashboard-no-miner-permission">{t('dashboard:noMinerPermission')}</Alert>
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <NucCard agentKey={agentKey} farmLastOnline={farm?.lastOnlineAt ?? null} version={farm?.version ?? null} />

        <Card withBorder padding="lg" data-testid="farm-card">
          <Group justify="space-between" mb="sm">
            <Title order={4}>{t('dashboard:farm.title')}</Title>
            {perms.has(PERMISSION.farmSettings) && (
              <Button component={Link} to="/setting/agent/agent" variant="subtle" size={phone ? 'sm' : 'compact-sm'} data-testid="dashboard-farm-settings">
                {t('dashboard:farm.settings')}
              </Button>
            )}
          </Group>
          <Table withRowBorders={false} verticalSpacing={6} horizontalSpacing={0}>
            <Table.Tbody>
              <Row label={t('dashboard:farm.name')}>{name}</Row>
              <Row label={t('dashboard:farm.key')}>{agentKey}</Row>
              <Row label={t('dashboard:farm.emails')}>{farm?.noticeEmails ? farm.noticeEmails.split(',').join(', ') : '-'}</Row>
              <Row label={t('dashboard:farm.remark')}>{farm?.agentAddr || '-'}</Row>
            </Table.Tbody>
          </Table>
        </Card>
      </SimpleGrid>

      <QuickLinks />
    </Stack>
  );
}
