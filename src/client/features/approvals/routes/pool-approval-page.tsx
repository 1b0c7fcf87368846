/**
 * The batch pool-setting approval page (spec 2 §2): /poolApproval?uuid=…&type=pool|upload, opened from the
 * approver's e-mail. Read-only fields — applicant role, farm name, the firmware link (type upload) or the
 * pool group info with three pools, total miners — and Agree / Disagree, each confirmed as a one-time
 * action; after one action both are disabled, whatever its outcome. Code -1 shows its msg as an error.
 */
import { useState } from 'react';
import { formatDate } from '@shared/format/date';
import { Alert, Anchor, Badge, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import type { PoolConfInfo } from '@shared/schemas/approvals';
import { useDecide, usePoolConfInfo } from '../api/approvals-api';

function ReadOnly({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return <TextInput label={label} value={value} readOnly variant="filled" data-testid={testId} />;
}

function PoolTable({ info }: { info: PoolConfInfo }) {
  const { t } = useTranslation('approvals');
  const g = info.poolGroupInfo;
  if (!g) return null;
  const rows = [
    { n: 1, url: g.Pool1Url, user: g.Pool1User, suffix: g.Pool1Suffix },
    { n: 2, url: g.Pool2Url, user: g.Pool2User, suffix: g.Pool2Suffix },
    { n: 3, url: g.Pool3Url, user: g.Pool3User, suffix: g.Pool3Suffix },
  ];
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('fields.poolGroupInfo')}
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table withTableBorder striped data-testid="approval-pools">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={60}>{t('pools.pool')}</Table.Th>
              <Table.Th>{t('pools.url')}</Table.Th>
              <Table.Th>{t('pools.user')}</Table.Th>
              <Table.Th w={90}>{t('pools.suffix')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.n}>
                <Table.Td>{t('pools.poolN', { n: r.n })}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{r.url || '-'}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{r.user || '-'}</Table.Td>
                <Table.Td>{r.suffix ? t(`suffix.${r.suffix}`, { defaultValue: r.suffix }) : '-'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

export function PoolApprovalPage() {
  const { t } = useTranslation('approvals');
  const [params] = useSearchParams();
  const uuid = params.get('uuid');
  const type = params.get('type') === 'upload' ? 'upload' : 'pool';
  const info = usePoolConfInfo(uuid);
  const decide = useDecide(uuid ?? '');
  // One-shot (spec 2 §4): after one action both buttons stay disabled, whether it succeeded or failed.
  const [acted, setActed] = useState(false);

  const ask = (decision: 'agree' | 'disagree') =>
    modals.openConfirmModal({
      title: decision === 'agree' ? t('confirm.agreeTitle') : t('confirm.disagreeTitle'),
      children: <Text size="sm">{t('confirm.once')}</Text>,
      labels: { confirm: decision === 'agree' ? t('actions.agree') : t('actions.disagree'), cancel: t('actions.cancel') },
      confirmProps: { color: decision === 'agree' ? 'green' : 'red', 'data-testid': 'approval-confirm' } as never,
      onConfirm: () => {
        setActed(true);
        decide.mutate(decision, {
          onSuccess: () => notifySuccess(t('feedback.done')),
          onError: (e) => notifyFailure(e, t('feedback.failed')),
        });
      },
    });

  if (!uuid) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('page.badLink')} data-testid="approval-error">
        {t('page.badLinkHelp')}
      </Alert>
    );
  }
  if (info.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={t('page.loading')} />
      </Center>
    );
  }
  if (info.isError || !info.data) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('page.loadFailed')} data-testid="approval-error">
        <Stack gap="xs">
          <Text size="sm">{info.error instanceof Error ? info.error.message : ''}</Text>
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => void info.refetch()}>
              {t('actions.retry')}
            </Button>
            <Button size="xs" variant="default" component={Link} to="/">
              {t('actions.home')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }

  const d = info.data;
  const disabled = acted || decide.isPending || !d.canDecide;
  const showType = d.type ?? type;
  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Title order={3}>{showType === 'upload' ? t('page.titleUpload') : t('page.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('page.description')}
          </Text>
        </Stack>
        <Badge size="lg" variant="light" color={d.status === 'agreed' ? 'green' : d.status === 'disagreed' ? 'red' : 'yellow'} data-testid="approval-status">
          {t(`status.${d.status}`)}
        </Badge>
      </Group>
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <ReadOnly label={t('fields.initiatorRole')} value={d.initiatorRole || '-'} testId="approval-role" />
            <ReadOnly label={t('fields.initiator')} value={d.initiator || '-'} />
            <ReadOnly label={t('fields.agentName')} value={d.agentName} testId="approval-farm" />
            <ReadOnly label={t('fields.ipLen')} value={String(d.ipLen)} testId="approval-total" />
            {showType === 'pool' && <ReadOnly label={t('fields.poolConfig')} value={d.poolConfig ? t(`suffix.${d.poolConfig}`, { defaultValue: d.poolConfig }) : '-'} />}
            <ReadOnly label={t('fields.createdAt')} value={formatDate(d.createdAt)} />
          </SimpleGrid>
          {showType === 'upload' ? (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('fields.fileUrl')}
              </Text>
              <Anchor href={d.fileUrl ?? undefined} target="_blank" rel="noreferrer" style={{ wordBreak: 'break-all' }} data-testid="approval-file">
                {d.fileUrl}
              </Anchor>
            </Stack>
          ) : (
            <PoolTable info={d} />
          )}
          {d.status !== 'pending' && (
            <Alert color={d.status === 'agreed' && !d.failure ? 'green' : 'gray'} data-testid="approval-outcome">
              {d.status === 'agreed'
                ? d.failure
                  ? t('outcome.agreedFailed', { by: d.decidedBy ?? '-' })
                  : t('outcome.agreed', { by: d.decidedBy ?? '-', at: d.decidedAt ? formatDate(d.decidedAt) : '-' })
                : t('outcome.disagreed', { by: d.decidedBy ?? '-', at: d.decidedAt ? formatDate(d.decidedAt) : '-' })}
            </Alert>
          )}
          {d.status === 'pending' && !d.canDecide && (
            <Alert color="blue" data-testid="approval-waiting">
              {t('outcome.waiting')}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button color="red" variant="light" leftSection={<IconX size={16} />} disabled={disabled} onClick={() => ask('disagree')} data-testid="approval-disagree">
              {t('actions.disagree')}
            </Button>
            <Button color="green" leftSection={<IconCheck size={16} />} disabled={disabled} loading={decide.isPending && decide.variables === 'agree'} onClick={() => ask('agree')} data-testid="approval-agree">
              {t('actions.agree')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
