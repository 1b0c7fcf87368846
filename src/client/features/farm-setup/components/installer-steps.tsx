/**
 * The installer variant's first three steps (spec 2 §2, spec 3 §4), on the agent's computer of an existing farm:
 * - check equipment: the agent is connected, miners are found, the delay to this service and the miner count
 *   are within the sizing guidance (spec 1 §9), read live from the server;
 * - change file: the package's config file (hashfield-agent.json) with this farm's server, agentKey and secret
 *   (the secret is shown once; "show a new secret" gives one, and the old one stops working);
 * - restart service: the command to restart the agent's service, then the check: the wizard waits for the
 *   agent's next report after the installer says it restarted (a heartbeat newer than the one seen at that
 *   moment). The agent has no "restart yourself" task: the restart is an instruction the installer carries out.
 */
import { useEffect, useState } from 'react';
import { DATE_FORMATS, formatDate } from '@shared/format/date';
import { Alert, Badge, Button, Code, CopyButton, Group, List, Loader, Paper, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload, IconKey, IconRefresh, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyFailure } from '@client/lib/feedback';
import { formatNumber } from '@shared/format/number';
import { useAgentStatus, useMinerTotal, useRestartWatch, useRotateSetupSecret } from '../api/farm-setup-api';
import { CONFIG_FILE_NAME, CONFIG_FILE_PATH, RESTART_COMMAND, configFileText, isServerUrl } from '../lib/agent-config-file';
import { downloadBlob } from '@client/lib/download-blob';
import { SIZING } from './install-step';
import { PackageDownload } from './package-download';

function CopyCode({ value, testId }: { value: string; testId: string }) {
  const { t } = useTranslation('farm-setup');
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid={testId}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="xs" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}>
            {copied ? t('run.copied') : t('run.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

function Check({ ok, warn, label, testId }: { ok: boolean; warn?: boolean; label: string; testId: string }) {
  const color = ok ? 'green' : warn ? 'yellow' : 'gray';
  return (
    <Group gap="xs" wrap="nowrap" data-testid={testId} data-ok={ok ? 'true' : 'false'}>
      <ThemeIcon size={22} radius="xl" color={color} variant="light">
        {ok ? <IconCheck size={14} /> : warn ? <IconAlertTriangle size={14} /> : <IconX size={14} />}
      </ThemeIcon>
      <Text size="sm">{label}</Text>
    </Group>
  );
}

export function CheckEquipmentStep({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('farm-setup');
  const status = useAgentStatus(agentKey, true);
  const miners = useMinerTotal(agentKey, true);
  const online = status.data?.isOnline ?? false;
  const count = miners.data ?? 0;
  const delay = status.data?.netDelay ?? 0;
  const loading = status.isPending || miners.isPending;
  return (
    <Stack gap="md" data-testid="step-check-equipment">
      <Text size="sm">{t('check.intro')}</Text>
      {status.isError || miners.isError ? (
        <Text size="sm" c="red">
          {t('feedback.loadFailed')}
        </Text>
      ) : loading ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('feedback.loading')}
          </Text>
        </Group>
      ) : (
        <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="xs">
            <Check ok={online} label={online ? t('check.agentOnline') : t('check.agentOffline')} testId="check-agent" />
            <Check ok={count > 0} label={count > 0 ? t('check.miners', { count, formatted: formatNumber(count) }) : t('check.noMiners')} testId="check-miners" />
            <Check
              ok={online && delay <= SIZING.pingServiceMs}
              warn={online && delay > SIZING.pingServiceMs}
              label={online ? t('check.delay', { ms: formatNumber(delay), max: SIZING.pingServiceMs }) : t('check.delayUnknown', { max: SIZING.pingServiceMs })}
              testId="check-delay"
            />
            <Check ok={count < SIZING.maxMiners} warn={count >= SIZING.maxMiners} label={t('check.capacity', { max: formatNumber(SIZING.maxMiners) })} testId="check-capacity" />
          </Stack>
        </Paper>
      )}
      <Text size="xs" c="dimmed">
        {online ? (count > 0 ? t('check.allSet') : t('run.scanHint')) : t('check.notConnectedHint')}
      </Text>
      <PackageDownload agentKey={agentKey} />
    </Stack>
  );
}

export interface ChangeFileStepProps {
  agentKey: string;
  secret: string | null;
  onSecret: (secret: string) => void;
  canRotate: boolean;
}

export function ChangeFileStep({ agentKey, secret, onSecret, canRotate }: ChangeFileStepProps) {
  const { t } = useTranslation('farm-setup');
  const rotate = useRotateSetupSecret();
  const [server, setServer] = useState(() => window.location.origin);
  const serverOk = isServerUrl(server);
  const text = configFileText({ server: serverOk ? server : window.location.origin, agentKey, secret: secret ?? t('file.secretPlaceholder') });

  const askRotate = () =>
    modals.openConfirmModal({
      title: t('run.rotateTitle'),
      children: <Text size="sm">{t('file.rotateBody')}</Text>,
      labels: { confirm: t('run.rotate'), cancel: t('actions.cancel') },
      confirmProps: { 'data-testid': 'file-rotate-confirm' } as never,
      onConfirm: () => rotate.mutate(agentKey, { onSuccess: (r) => onSecret(r.secret), onError: (e) => notifyFailure(e, t('feedback.failed')) }),
    });

  return (
    <Stack gap="md" data-testid="step-change-file">
      <Text size="sm">{t('file.intro', { path: CONFIG_FILE_PATH, file: CONFIG_FILE_NAME })}</Text>
      <TextInput
        label={t('file.server')}
        description={t('file.serverHint')}
        value={server}
        onChange={(e) => setServer(e.currentTarget.value)}
        error={serverOk ? undefined : t('file.serverInvalid')}
        maw={480}
        name="server"
        autoCapitalize="off"
        spellCheck={false}
      />
      {secret ? (
        <Alert color="yellow" icon={<IconKey size={18} />} p="xs">
          {t('run.secretOnce')}
        </Alert>
      ) : (
        <Stack gap={6}>
          <Text size="sm" c="dimmed" data-testid="file-no-secret">
            {canRotate ? t('file.noSecret') : t('file.noSecretNoRight')}
          </Text>
          {canRotate && (
            <Group>
              <Button size="xs" variant="light" leftSection={<IconKey size={14} />} loading={rotate.isPending} onClick={askRotate} data-testid="file-rotate">
                {t('run.rotate')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <CopyCode value={text} testId="config-file" />
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} />}
          disabled={!secret || !serverOk}
          onClick={() => downloadBlob(new Blob([text], { type: 'application/json' }), CONFIG_FILE_NAME)}
          data-testid="config-file-download"
        >
          {t('file.download', { file: CONFIG_FILE_NAME })}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('file.after')}
      </Text>
    </Stack>
  );
}

type RestartPhase = { kind: 'idle' } | { kind: 'waiting'; baseline: string | null; since: number } | { kind: 'done'; at: string } | { kind: 'timeout' };

/** Longest wait for the agent's report after a restart (a poll cycle is 60 s by default, at most 1 hour). */
const RESTART_WAIT_MS = 5 * 60_000;

export function RestartServiceStep({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('farm-setup');
  const [phase, setPhase] = useState<RestartPhase>({ kind: 'idle' });
  const watch = useRestartWatch(agentKey, phase.kind === 'waiting');
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (phase.kind !== 'waiting') return;
    const s = watch.data;
    if (s?.isOnline && s.lastOnlineAt && s.lastOnlineAt !== phase.baseline) setPhase({ kind: 'done', at: s.lastOnlineAt });
  }, [phase, watch.data]);

  useEffect(() => {
    if (phase.kind !== 'waiting') return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() - phase.since > RESTART_WAIT_MS) setPhase({ kind: 'timeout' });
    }, 1_000);
    return () => clearInterval(timer);
  }, [phase]);

  const startCheck = async () => {
    const r = await watch.refetch();
    if (r.isError) {
      notifyFailure(r.error, t('feedback.loadFailed'));
      return;
    }
    setNow(Date.now());
    setPhase({ kind: 'waiting', baseline: r.data?.lastOnlineAt ?? null, since: Date.now() });
  };

  return (
    <Stack gap="md" data-testid="step-restart-service">
      <Text size="sm">{t('restart.intro', { file: CONFIG_FILE_NAME })}</Text>
      <CopyCode value={RESTART_COMMAND} testId="restart-command" />
      <Text size="xs" c="dimmed">
        {t('restart.windows')}
      </Text>
      {phase.kind === 'waiting' ? (
        <Alert color="blue" icon={<Loader size={16} />} data-testid="restart-waiting">
          <Stack gap={4}>
            <Text size="sm">{t('restart.waiting')}</Text>
            <Text size="xs" c="dimmed">
              {t('restart.elapsed', { seconds: Math.max(0, Math.round((now - phase.since) / 1000)) })}
            </Text>
          </Stack>
        </Alert>
      ) : phase.kind === 'done' ? (
        <Alert color="green" icon={<IconCheck size={18} />} data-testid="restart-ok">
          {t('restart.ok', { time: formatDate(phase.at, DATE_FORMATS.time) })}
        </Alert>
      ) : phase.kind === 'timeout' ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="restart-timeout">
          {t('restart.timeout', { minutes: RESTART_WAIT_MS / 60_000 })}
        </Alert>
      ) : null}
      <Group gap="xs">
        {phase.kind !== 'waiting' && (
          <Button variant={phase.kind === 'done' ? 'default' : 'filled'} leftSection={<IconRefresh size={16} />} onClick={() => void startCheck()} loading={watch.isFetching && phase.kind === 'idle'} data-testid="restart-check">
            {phase.kind === 'idle' ? t('restart.check') : t('restart.checkAgain')}
          </Button>
        )}
        {phase.kind === 'waiting' && (
          <Button variant="subtle" color="gray" onClick={() => setPhase({ kind: 'idle' })}>
            {t('actions.cancel')}
          </Button>
        )}
        <Badge variant="light" color={watch.data?.isOnline ? 'green' : 'gray'}>
          {watch.data?.isOnline ? t('run.online') : t('run.waiting')}
        </Badge>
      </Group>
      <List size="xs" c="dimmed">
        <List.Item>{t('restart.hint')}</List.Item>
      </List>
    </Stack>
  );
}
