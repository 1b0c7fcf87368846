import type { ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Card, Code, Group, SimpleGrid, Skeleton, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import { useHostInfoDetail } from '../api/get-host-info';
import { FarmStatusCell } from '../components/farm-status-cell';
import { OverLimitWarning, SizingGuidance } from '../components/sizing-guidance';
import { useHostFormat } from '../components/use-host-format';
import { mbToGb } from '../lib/host-format';
import { NUC_SIZING, sizingAdvice } from '../lib/host-sizing';
import { LoadErrorAlert } from '../components/load-error-alert';
import { usePhone } from '@client/lib/use-phone';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Stack>
  );
}

function CheckMark({ ok }: { ok: boolean | null }) {
  const { t } = useTranslation('farms');
  if (ok === null) {
    return (
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {t('host.notReported')}
      </Text>
    );
  }
  return ok ? (
    <ThemeIcon size="sm" color="green" variant="light" aria-label={t('host.ok')}>
      <IconCheck size={14} />
    </ThemeIcon>
  ) : (
    <ThemeIcon size="sm" color="orange" variant="light" aria-label={t('host.belowRecommended')}>
      <IconAlertTriangle size={14} />
    </ThemeIcon>
  );
}

/** /agents/hostInfo/detail?agentKey=: one NUC's details, connection status and sizing check. */
export function HostInfoDetailPage() {
  const { t } = useTranslation('farms');
  const [params] = useSearchParams();
  const agentKey = params.get('agentKey') ?? '';
  const host = useHostInfoDetail(agentKey);
  const fmt = useHostFormat();
  const phone = usePhone();

  const back = (
    <Button component={Link} to="/agents/hostInfo" variant="subtle" leftSection={<IconArrowLeft size={16} />} px={0} w="fit-content">
      {t('actions.back')}
    </Button>
  );

  if (agentKey === '') {
    return (
      <Stack gap="md">
        {back}
        <Alert color="yellow">{t('host.detailMissing')}</Alert>
      </Stack>
    );
  }
  if (host.isPending) {
    return (
      <Stack gap="md">
        {back}
        <Skeleton h={32} w={240} />
        <Skeleton h={160} />
        <Skeleton h={220} />
      </Stack>
    );
  }
  if (host.isError) {
    return (
      <Stack gap="md">
        {back}
        <LoadErrorAlert title={t('host.loadError')} error={host.error} onRetry={() => host.refetch()} />
      </Stack>
    );
  }

  const h = host.data;
  const advice = sizingAdvice(Math.min(h.minerCount, NUC_SIZING.maxMinersPerNuc - 1));
  const memoryGb = mbToGb(h.memoryMb);
  const checks = [
    { label: t('host.cpu'), recommended: String(advice.cores), actual: h.cpuCores === null ? '-' : String(h.cpuCores), ok: h.cpuCores === null ? null : h.cpuCores >= advice.cores },
    {
      label: t('host.memory'),
      recommended: t('host.gb', { value: advice.memoryGb }),
      actual: fmt.gb(h.memoryMb),
      ok: memoryGb === null ? null : Number(memoryGb) >= advice.memoryGb * 0.9,
    },
    { label: t('columns.miners'), recommended: `< ${formatNumber(NUC_SIZING.maxMinersPerNuc)}`, actual: formatNumber(h.minerCount), ok: !sizingAdvice(h.minerCount).overLimit },
    { label: t('columns.delay'), recommended: `< ${t('status.delayMs', { delay: NUC_SIZING.maxPingServiceMs })}`, actual: h.isOnline && h.netDelay > 0 ? t('status.delayMs', { delay: h.netDelay }) : '-', ok: h.isOnline && h.netDelay > 0 ? h.netDelay < NUC_SIZING.maxPingServiceMs : null },
  ];

  return (
    <Stack gap="md">
      {back}
      <Group gap="sm" wrap="wrap">
        <Title order={3}>{h.agentName || h.agentKey}</Title>
        <Code>{h.agentKey}</Code>
        {h.version && (
          <Badge variant="outline" size="sm" tt="none">
            v{h.version}
          </Badge>
        )}
      </Group>
      <OverLimitWarning farms={[h]} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder padding="md">
          <Title order={5} mb="sm">
            {t('host.statusTitle')}
          </Title>
          <SimpleGrid cols={2} spacing="sm">
            <Field label={t('columns.status')}>
              <FarmStatusCell isOnline={h.isOnline} netDelay={h.netDelay} lastOnlineAt={h.lastOnlineAt} />
            </Field>
            <Field label={t('columns.lastOnline')}>{formatDate(h.lastOnlineAt)}</Field>
            <Field label={t('columns.version')}>{h.version ?? '-'}</Field>
            <Field label={t('columns.miners')}>{formatNumber(h.minerCount)}</Field>
            <Field label={t('host.ip')}>{h.ip ?? '-'}</Field>
          </SimpleGrid>
        </Card>
        <Card withBorder padding="md">
          <Title order={5} mb="sm">
            {t('host.hostTitle')}
          </Title>
          <SimpleGrid cols={2} spacing="sm">
            <Field label={t('host.hostname')}>{h.hostname ?? '-'}</Field>
            <Field label={t('host.os')}>{h.os ?? '-'}</Field>
            <Field label={t('host.cpu')}>{h.cpuCores ?? '-'}</Field>
            <Field label={t('host.memory')}>{fmt.gb(h.memoryMb)}</Field>
            <Field label={t('host.disk')}>{fmt.gb(h.diskFreeMb)}</Field>
            <Field label={t('host.uptime')}>{fmt.uptime(h.uptimeSec)}</Field>
          </SimpleGrid>
        </Card>
      </SimpleGrid>
      <Card withBorder padding="md">
        <Title order={5} mb="sm">
          {t('host.sizingCheck')}
        </Title>
        {/* On a phone the table fits the card (302 px at 360): with a 320 px minimum, a 120 px last column and 10 px
            cell padding (Russian's "Рекомендуется" alone needs 145 px), the check marks, the point of the table,
            were scrolled off its right edge. */}
        <Table.ScrollContainer minWidth={phone ? 0 : 320}>
          <Table verticalSpacing={6} horizontalSpacing={phone ? 4 : undefined} data-testid="sizing-check">
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th>{t('host.recommended', { miners: formatNumber(h.minerCount) })}</Table.Th>
                <Table.Th>{t('host.actual')}</Table.Th>
                <Table.Th w={phone ? undefined : 120} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {checks.map((c) => (
                <Table.Tr key={c.label}>
                  <Table.Td>{c.label}</Table.Td>
                  <Table.Td>{c.recommended}</Table.Td>
                  <Table.Td>{c.actual}</Table.Td>
                  <Table.Td>
                    <CheckMark ok={c.ok} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <SizingGuidance />
      {/* A tap target of 32 px on a phone: the link's line alone is 20 px. */}
      <Anchor component={Link} to="/agents" size="sm" w="fit-content" py={phone ? 6 : undefined} data-testid="host-detail-farms">
        {t('list.title')}
      </Anchor>
    </Stack>
  );
}
