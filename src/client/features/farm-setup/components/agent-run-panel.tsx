/**
 * How to run the farm's agent: the exact command with the farm's key and secret (the secret exists only in
 * memory, right after creation or after "show a new secret"), the live connection state and the miners
 * found so far, polled every 5 s while shown; and the farm's agent package to download.
 */
import { Alert, Badge, Button, Code, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconCopy, IconKey, IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyFailure } from '@client/lib/feedback';
import { formatNumber } from '@shared/format/number';
import { useAgentStatus, useMinerTotal, useRotateSetupSecret } from '../api/farm-setup-api';
import { agentCommand } from '../lib/agent-command';
import { PackageDownload } from './package-download';

export interface AgentRunPanelProps {
  agentKey: string;
  secret: string | null;
  onSecret: (secret: string) => void;
  canRotate: boolean;
}

export function AgentRunPanel({ agentKey, secret, onSecret, canRotate }: AgentRunPanelProps) {
  const { t } = useTranslation('farm-setup');
  const status = useAgentStatus(agentKey, true);
  const miners = useMinerTotal(agentKey, true);
  const rotate = useRotateSetupSecret();
  const command = secret ? agentCommand(window.location.origin, agentKey, secret) : null;
  const online = status.data?.isOnline ?? false;

  const askRotate = () =>
    modals.openConfirmModal({
      title: t('run.rotateTitle'),
      children: <Text size="sm">{t('run.rotateBody')}</Text>,
      labels: { confirm: t('run.rotate'), cancel: t('actions.cancel') },
      onConfirm: () => rotate.mutate(agentKey, { onSuccess: (r) => onSecret(r.secret), onError: (e) => notifyFailure(e, t('feedback.failed')) }),
    });

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid="agent-run-panel">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600}>{t('run.title')}</Text>
          <Group gap="xs">
            <Badge color={online ? 'green' : 'gray'} variant="light" leftSection={online ? <IconPlugConnected size={14} /> : <IconPlugConnectedX size={14} />} data-testid="agent-online">
              {online ? t('run.online') : t('run.waiting')}
            </Badge>
            <Badge color={(miners.data ?? 0) > 0 ? 'blue' : 'gray'} variant="light" data-testid="agent-miners">
              {t('run.miners', { count: miners.data ?? 0, formatted: formatNumber(miners.data ?? 0) })}
            </Badge>
          </Group>
        </Group>
        {command ? (
          <>
            <Alert color="yellow" icon={<IconKey size={18} />} p="xs">
              {t('run.secretOnce')}
            </Alert>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="agent-command">
                {command}
              </Code>
              <CopyButton value={command}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}>
                    {copied ? t('run.copied') : t('run.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </>
        ) : (
          <Stack gap={6}>
            <Text size="sm" c="dimmed">
              {t('run.noSecret', { agentKey })}
            </Text>
            {canRotate && (
              <Group>
                <Button size="xs" variant="light" leftSection={<IconKey size={14} />} loading={rotate.isPending} onClick={askRotate} data-testid="agent-rotate">
                  {t('run.rotate')}
                </Button>
              </Group>
            )}
          </Stack>
        )}
        <Text size="xs" c="dimmed">
          {online ? ((miners.data ?? 0) > 0 ? t('run.foundHint') : t('run.scanHint')) : t('run.startHint')}
        </Text>
        <PackageDownload agentKey={agentKey} />
      </Stack>
    </Paper>
  );
}
