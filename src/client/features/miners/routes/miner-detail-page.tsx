/**
 * /device/miner/detail?ip=…: one miner of the current farm — identity (with its customer, zone and accident mark),
 * states and fault labels, hashrates, hashboards, fans, pools, and hashrate / temperature history charts (hour, day,
 * month).
 */
import { useMemo, useState, type ReactNode } from 'react';
import { accidentText, errorCodeText, offlineReasonOf } from '@shared/miner-labels';
import { Alert, Anchor, Badge, Button, Card, Center, Grid, Group, Loader, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArchive, IconArrowLeft, IconPlugConnectedX, IconRefresh, IconWifiOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useAgentKey } from '@client/lib/agent-key';
import { formatDate } from '@shared/format/date';
import { formatHashrate, formatHashrateTicks } from '@shared/format/hashrate';
import { formatNumber } from '@shared/format/number';
import { MINER_HISTORY_RANGES, type MinerDetail, type MinerHistoryPoint, type MinerHistoryRange } from '@shared/schemas/miner';
import { ApiError } from '@client/lib/api-client';
import { useMinerDetail, useMinerHistory } from '../api/miners-api';
import { PageHeader } from '@client/components/page-header';
import { NoFarmState } from '@client/components/no-farm-state';
import { FaultBadges, StatusBadges, notAnswering } from '../components/status-badges';
import { type ChartAxis, type ChartSeries, UplotChart } from '@client/components/uplot-chart';
import { durationParts, firmwareText, formatFans, formatPercent, formatTemp, liveFigure } from '../lib/format-miner';
import { useMinerLabels } from '../lib/use-miner-labels';
import { PERMISSION } from '@shared/menu-catalogue';
import { usePermissions } from '@client/lib/session-api';
import { FaultAnalysisCard } from '../components/fault-analysis-card';
import { HistoryLogCard } from '../components/history-log-card';
import { OperationLogCard } from '../components/operation-log-card';
import { SnEditButton } from '../components/sn-edit-button';
import { BoardsView, PoolsView } from '../components/detail-boards-pools';
import { DetailField } from '../components/detail-field';
import { usePhone } from '@client/lib/use-phone';

/** What a section says when the miner reported none of its items. */
function NoneText({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** A titled card; `fill`: as tall as its grid cell (cards side by side end on one line). */
function Section({ title, children, testId, fill }: { title: string; children: ReactNode; testId?: string; fill?: boolean }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId} h={fill ? '100%' : undefined}>
      <Title order={5} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

export function MinerDetailPage() {
  const { t } = useTranslation('miners');
  const agentKey = useAgentKey();
  const [params] = useSearchParams();
  const ip = params.get('ip')?.trim() ?? '';
  // Tap targets of at least 32 px on a phone (xs buttons are 30 px tall).
  const phone = usePhone();
  const back = (
    <Button component={Link} to="/device/miner" size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconArrowLeft size={14} />} data-testid="miner-detail-back">
      {t('detail.back')}
    </Button>
  );
  if (!agentKey) {
    return (
      <Stack gap="md">
        <PageHeader title={t('detail.title')} actions={back} />
        <NoFarmState />
      </Stack>
    );
  }
  if (!ip) {
    return (
      <Stack gap="md">
        <PageHeader title={t('detail.title')} actions={back} />
        <Alert color="yellow" data-testid="miner-detail-no-ip">
          {t('detail.noIp')}
        </Alert>
      </Stack>
    );
  }
  return <MinerDetailView key={`${agentKey}:${ip}`} agentKey={agentKey} ip={ip} back={back} />;
}

function MinerDetailView({ agentKey, ip, back }: { agentKey: string; ip: string; back: ReactNode }) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  const detail = useMinerDetail(agentKey, ip);
  const m = detail.data;

  let body: ReactNode;
  if (detail.isPending) {
    body = (
      <Center mih={240} data-testid="miner-detail-loading">
        <Loader />
      </Center>
    );
  } else if (detail.isError && !m) {
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    body = (
      <Alert color={notFound ? 'yellow' : 'red'} data-testid="miner-detail-error" title={notFound ? t('detail.notFound', { ip }) : t('detail.failed')}>
        {!notFound && (
          <Button size="xs" variant="light" mt="xs" onClick={() => void detail.refetch()}>
            {t('state.retry')}
          </Button>
        )}
      </Alert>
    );
  } else if (m) {
    body = <MinerDetailBody m={m} agentKey={agentKey} />;
  }

  return (
    <Stack gap="md" data-testid="miner-detail-page">
      <PageHeader
        title={m ? `${m.ip} · ${m.model || '-'}` : ip}
        description={m ? t('detail.takenAt', { time: formatDate(m.takenAt) }) : t('detail.title')}
        actions={
          <>
            {back}
            <Button size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconRefresh size={14} />} loading={detail.isFetching && !detail.isPending} onClick={() => void detail.refetch()}>
              {t('list.refresh')}
            </Button>
          </>
        }
      />
      {body}
    </Stack>
  );
}

function MinerDetailBody({ m, agentKey }: { m: MinerDetail; agentKey: string }) {
  const { t } = useTranslation('miners');
  const { label } = useMinerLabels();
  const s = m.snapshot;
  const elapsed = t('units.elapsed', { ...durationParts(m.elapsed) });
  const canOperate = usePermissions().has(PERMISSION.minerOperations);
  const reason = offlineReasonOf(m);
  return (
    <Stack gap="md">
      {m.offShelf && (
        <Alert color="orange" variant="light" icon={<IconArchive size={18} />} title={m.offShelf.at ? t('detail.offShelf', { time: formatDate(m.offShelf.at) }) : t('detail.offShelfNoTime')} data-testid="miner-detail-off-shelf">
          <Group gap="xs" wrap="wrap">
            <Text size="sm">{t('detail.offShelfRepair', { status: label('repairStatus', m.offShelf.repairStatus ?? 'awaiting') })}</Text>
            <Anchor component={Link} to="/device/miners" size="sm" data-testid="miner-detail-off-shelf-link">
              {t('detail.offShelfOpen')}
            </Anchor>
          </Group>
        </Alert>
      )}
      {!m.online && (
        <Alert color="gray" variant="light" icon={<IconPlugConnectedX size={18} />} title={t('detail.offline', { time: formatDate(m.takenAt) })} data-testid="miner-detail-offline">
          {reason && (
            <Text size="sm" fw={500} mb={4} data-testid="miner-detail-offline-reason">
              {label('offlineReason', String(reason.code))}
            </Text>
          )}
          {t('detail.offlineHint')}
        </Alert>
      )}
      {notAnswering(m) && (
        <Alert color="yellow" variant="light" icon={<IconWifiOff size={18} />} title={t('detail.notAnswering', { time: formatDate(m.takenAt) })} data-testid="miner-detail-not-answering">
          {t('detail.notAnsweringHint', { count: m.missedPolls })}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title={t('detail.identity')} testId="miner-detail-identity">
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
            <DetailField label={t('columns.ip')}>{m.ip}</DetailField>
            <DetailField label={t('columns.sn')} wide>
              <Group gap={4} wrap="nowrap">
                <span data-testid="miner-detail-sn">{m.sn || '-'}</span>
                {canOperate && <SnEditButton agentKey={agentKey} ip={m.ip} sn={m.sn} reportedSn={s.sn} />}
              </Group>
            </DetailField>
            <DetailField label={t('columns.mac')}>{m.mac || '-'}</DetailField>
            <DetailField label={t('columns.make')}>{m.make || '-'}</DetailField>
            <DetailField label={t('columns.model')}>{m.model || '-'}</DetailField>
            <DetailField label={t('columns.customer')}>
              <span data-testid="miner-detail-customer">{m.customer ?? '-'}</span>
            </DetailField>
            <DetailField label={t('columns.zone')}>
              <span data-testid="miner-detail-zone">{m.zone ?? '-'}</span>
            </DetailField>
            <DetailField label={t('columns.accident')}>
              <span data-testid="miner-detail-accident">{accidentText(m, label) ?? '-'}</span>
            </DetailField>
            <DetailField label={t('columns.family')}>{m.family}</DetailField>
            <DetailField label={t('columns.compileTime')}>{firmwareText(m.compileTime, m.firmwareVersion)}</DetailField>
            <DetailField label={t('columns.firmwareVersion')}>{m.firmwareVersion || '-'}</DetailField>
            <DetailField label={t('columns.workMode')}>{label('workMode', m.workMode)}</DetailField>
            <DetailField label={t('columns.elapsed')}>{elapsed}</DetailField>
            {/* The label carries the unit ("Power (W)"): "3,500 W" under it said it twice, in English in every language. */}
            <DetailField label={t('columns.powerW')}>{m.powerW === null ? '-' : formatNumber(m.powerW)}</DetailField>
            <DetailField label={t('columns.firstSeenAt')}>{formatDate(m.firstSeenAt)}</DetailField>
          </SimpleGrid>
        </Section>
        <Section title={t('detail.state')} testId="miner-detail-state">
          <Stack gap="sm">
            <StatusBadges statuses={m.statuses} />
            <DetailField label={t('columns.faultReason')}>{m.faultLabels.length ? <FaultBadges labels={m.faultLabels} /> : t('detail.noFaults')}</DetailField>
            <DetailField label={t('columns.errorCode')}>
              {m.errorCodes.length ? (
                <Stack gap={2}>
                  {m.errorCodes.map((e, i) => (
                    <Text size="sm" key={`${e.code}-${i}`}>
                      <Badge size="xs" variant="outline" color="red" mr={6}>
                        {e.code}
                      </Badge>
                      {errorCodeText(e, label)}
                    </Text>
                  ))}
                </Stack>
              ) : (
                '-'
              )}
            </DetailField>
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
              <DetailField label={t('columns.gHS5s')}>
                <span data-testid="miner-detail-gHS5s">{liveFigure(m.online, formatHashrate(m.gHS5s))}</span>
              </DetailField>
              <DetailField label={t('columns.gHS30m')}>
                <span data-testid="miner-detail-gHS30m">{liveFigure(m.online, formatHashrate(m.gHS30m))}</span>
              </DetailField>
              <DetailField label={t('columns.gHSav')}>{formatHashrate(m.gHSav)}</DetailField>
              <DetailField label={t('columns.rateIdeal')}>{formatHashrate(m.rateIdeal)}</DetailField>
              <DetailField label={t('columns.hashRatePercent')}>
                <span data-testid="miner-detail-hashRatePercent">{liveFigure(m.online, formatPercent(m.hashRatePercent))}</span>
              </DetailField>
              <DetailField label={t('columns.rate24Hour')}>{m.rate24Hour === null ? '-' : formatHashrate(m.rate24Hour)}</DetailField>
            </SimpleGrid>
          </Stack>
        </Section>
      </SimpleGrid>

      <HistoryCharts agentKey={agentKey} ip={m.ip} />

      <Section title={t('detail.boards')} testId="miner-detail-boards">
        {s.boards.length === 0 ? (
          <NoneText>{t('detail.noBoards')}</NoneText>
        ) : (
          <BoardsView boards={s.boards} online={m.online} />
        )}
      </Section>

      {/* The pools get two thirds of a wide screen and the whole width below it: their addresses need the room. */}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Section title={t('detail.fans')} testId="miner-detail-fans" fill>
            {s.fans.length === 0 ? (
              <NoneText>{t('detail.noFans')}</NoneText>
            ) : (
              <Group gap="xs">
                {s.fans.map((rpm, i) => (
                  <Badge key={i} size="lg" variant="light" color={rpm === 0 ? 'red' : 'gray'} tt="none">
                    {t('detail.fan', { index: i + 1 })}: {formatNumber(rpm)} {t('units.rpm')}
                  </Badge>
                ))}
              </Group>
            )}
            <Text size="xs" c="dimmed" mt="xs">
              {formatFans(s.fans)} · {t('columns.tempChipMax')}: {formatTemp(m.tempChipMax)}
            </Text>
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Section title={t('detail.pools')} testId="miner-detail-pools" fill>
            {s.pools.length === 0 ? (
              <NoneText>{t('detail.noPools')}</NoneText>
            ) : (
              <PoolsView pools={s.pools} />
            )}
          </Section>
        </Grid.Col>
      </Grid>
      <FaultAnalysisCard agentKey={agentKey} ip={m.ip} />
      <HistoryLogCard agentKey={agentKey} ip={m.ip} canOperate={canOperate} />
      <OperationLogCard agentKey={agentKey} ip={m.ip} />
    </Stack>
  );
}

const tempAxis = (v: number) => `${formatNumber(v, 0)} °C`;
/** The window of each history range, in seconds (the server's: hourly over 24 hours, daily over 30 days, monthly over 12 months). */
const HISTORY_SPAN: Record<MinerHistoryRange, number> = { hour: 86_400, day: 30 * 86_400, month: 365 * 86_400 };

function HistoryCharts({ agentKey, ip }: { agentKey: string; ip: string }) {
  const { t } = useTranslation('miners');
  // A finger's target on a phone (the compact control is ~23 px tall).
  const phone = usePhone();
  const [rangeName, setRange] = useState<MinerHistoryRange>('hour');
  const history = useMinerHistory(agentKey, ip, rangeName);
  const points: MinerHistoryPoint[] = useMemo(() => history.data ?? [], [history.data]);
  const x = useMemo(() => points.map((p) => Date.parse(p.at) / 1000), [points]);
  const rateSeries = useMemo<ChartSeries[]>(
    () => [
      { label: t('charts.real'), color: '#1c7ed6', values: points.map((p) => p.realGhs), fill: true },
      { label: t('charts.ideal'), color: '#868e96', values: points.map((p) => p.idealGhs), dash: true },
    ],
    [points, t],
  );
  const tempSeries = useMemo<ChartSeries[]>(() => [{ label: t('charts.tempMax'), color: '#e8590c', values: points.map((p) => p.tempMax), scale: 't' }], [points, t]);
  const rateAxes = useMemo<ChartAxis[]>(() => [{ scale: 'y', side: 'left', ticks: formatHashrateTicks, size: 80, zero: true }], []);
  const tempAxes = useMemo<ChartAxis[]>(() => [{ scale: 't', side: 'left', format: tempAxis, size: 60 }], []);
  const rateFormat = useMemo(() => ({ y: (v: number) => formatHashrate(v) }), []);
  const tempFormat = useMemo(() => ({ t: (v: number) => formatTemp(v) }), []);

  let content: ReactNode;
  if (history.isPending) {
    content = (
      <Center mih={200} data-testid="miner-history-loading">
        <Loader size="sm" />
      </Center>
    );
  } else if (history.isError && !history.data) {
    content = (
      <Alert color="red" data-testid="miner-history-error">
        {t('charts.failed')}
        <Button size="xs" variant="light" ml="sm" onClick={() => void history.refetch()}>
          {t('state.retry')}
        </Button>
      </Alert>
    );
  } else if (points.length === 0) {
    content = (
      <Center mih={160}>
        <Text size="sm" c="dimmed" data-testid="miner-history-empty">
          {t('charts.empty')}
        </Text>
      </Center>
    );
  } else {
    content = (
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('charts.hashrate')}
          </Text>
          <UplotChart x={x} series={rateSeries} axes={rateAxes} valueFormat={rateFormat} span={HISTORY_SPAN[rangeName]} testId="miner-chart-hashrate" ariaLabel={t('charts.hashrate')} />
        </div>
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('charts.temperature')}
          </Text>
          <UplotChart x={x} series={tempSeries} axes={tempAxes} valueFormat={tempFormat} span={HISTORY_SPAN[rangeName]} testId="miner-chart-temperature" ariaLabel={t('charts.temperature')} />
        </div>
      </SimpleGrid>
    );
  }

  return (
    <Card withBorder radius="md" padding="md" data-testid="miner-detail-history">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={5}>{t('detail.history')}</Title>
        {/* Across the card on a phone: "24 часа | 30 дней | 12 месяцев" ran past the card's edge. */}
        <SegmentedControl
          size={phone ? 'md' : 'xs'}
          fullWidth={phone}
          value={rangeName}
          onChange={(v) => setRange(v as MinerHistoryRange)}
          data={MINER_HISTORY_RANGES.map((r) => ({ value: r, label: t(`charts.range.${r}`) }))}
          data-testid="miner-history-range"
        />
      </Group>
      {content}
    </Card>
  );
}
