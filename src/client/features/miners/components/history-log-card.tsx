/**
 * History log of one miner (spec 3 §7): "fetch the log" asks the farm's agent to read it from the miner
 * (POST /api/miner/historyLog), then the status is polled every 2 s (GET /api/miner/historyLog/status) until the
 * text arrives — shown here and downloadable — or the agent reports why it could not.
 */
import { useState } from 'react';
import { Alert, Badge, Button, Card, Code, Group, Loader, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconFileText } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import { notifyFailure } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { useCreateHistoryLog, useHistoryLogStatus } from '../api/miner-records-api';
import { downloadBlob } from '@client/lib/download-blob';

const COLOR = { pending: 'gray', running: 'blue', done: 'green', failed: 'red' } as const;

export function HistoryLogCard({ agentKey, ip, canOperate }: { agentKey: string; ip: string; canOperate: boolean }) {
  const { t } = useTranslation('miners');
  // Tap targets of at least 32 px on a phone (xs buttons are 30 px tall).
  const phone = usePhone();
  const [id, setId] = useState<string | null>(null);
  const create = useCreateHistoryLog(agentKey, ip);
  const status = useHistoryLogStatus(agentKey, id);
  const s = status.data;
  const busy = create.isPending || (id !== null && (!s || s.status === 'pending' || s.status === 'running'));

  const start = () =>
    create.mutate(undefined, {
      onSuccess: (r) => setId(r.id),
      onError: (e) => notifyFailure(e, t('historyLog.failed')),
    });

  return (
    <Card withBorder radius="md" padding="md" data-testid="miner-history-log">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={5}>{t('historyLog.title')}</Title>
        {canOperate && (
          <Button size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconFileText size={14} />} loading={busy} onClick={start} data-testid="miner-history-log-create">
            {t('historyLog.create')}
          </Button>
        )}
      </Group>
      {id === null ? (
        <Text size="sm" c="dimmed">
          {canOperate ? t('historyLog.hint') : t('historyLog.noPermission')}
        </Text>
      ) : status.isError && !s ? (
        <Alert color="red">{t('historyLog.statusFailed')}</Alert>
      ) : !s ? (
        <Loader size="sm" />
      ) : (
        <Stack gap="xs">
          <Group gap="xs">
            <Badge color={COLOR[s.status]} variant="light" data-testid="miner-history-log-status" data-status={s.status}>
              {t(`historyLog.status.${s.status}`)}
            </Badge>
            {(s.status === 'pending' || s.status === 'running') && <Loader size="xs" />}
            <Text size="xs" c="dimmed">
              {t('historyLog.requested', { time: formatDate(s.createdAt) })}
            </Text>
          </Group>
          {s.status === 'failed' && (
            <Alert color="red" data-testid="miner-history-log-reason">
              {t('historyLog.reason', { reason: s.reason ?? '-' })}
            </Alert>
          )}
          {s.status === 'done' && (
            <>
              <Group justify="space-between" gap="xs">
                <Text size="xs" c="dimmed">
                  {t('historyLog.size', { size: s.size ?? 0, source: s.source ?? '-' })}
                </Text>
                <Button
                  size={phone ? 'sm' : 'xs'}
                  variant="light"
                  leftSection={<IconDownload size={14} />}
                  onClick={() => downloadBlob(new Blob([s.content ?? ''], { type: 'text/plain;charset=utf-8' }), `miner-log-${ip}-${s.createdAt.slice(0, 10)}.txt`)}
                  data-testid="miner-history-log-download"
                >
                  {t('historyLog.download')}
                </Button>
              </Group>
              <ScrollArea.Autosize mah={320} type="auto" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}>
                <Code block fz="xs" data-testid="miner-history-log-content" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {s.content}
                </Code>
              </ScrollArea.Autosize>
            </>
          )}
        </Stack>
      )}
    </Card>
  );
}
