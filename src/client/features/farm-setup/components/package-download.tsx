/**
 * The farm's agent package (GET /api/agent/package): one .tar.gz with agent.js, the farm's config file
 * (server and agentKey; the secret is added by the installer), a systemd unit, a Windows installer and a README. The first
 * download after an agent update is built on the server (a few seconds), hence the progress state.
 */
import { useState } from 'react';
import { Alert, Button, Code, Group, List, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconDownload, IconPackage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyFailure } from '@client/lib/feedback';
import { useDownloadAgentPackage } from '../api/farm-setup-api';
import { AGENT_WINDOWS_INSTALL_COMMAND } from '@shared/agent-cli';
import { CONFIG_FILE_NAME, SERVICE_NAME } from '../lib/agent-config-file';
import { downloadBlob } from '@client/lib/download-blob';

export function PackageDownload({ agentKey }: { agentKey: string }) {
  const { t, i18n } = useTranslation('farm-setup');
  const download = useDownloadAgentPackage();
  const [saved, setSaved] = useState<string | null>(null);

  const start = () =>
    download.mutate(
      { agentKey, locale: i18n.language },
      {
        onSuccess: (file) => {
          downloadBlob(file.blob, file.fileName);
          setSaved(file.fileName);
        },
        onError: (e) => notifyFailure(e, t('package.failed')),
      },
    );

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} data-testid="package-download">
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          <IconPackage size={20} />
          <Text fw={600}>{t('package.title')}</Text>
        </Group>
        <Text size="sm">{t('package.intro', { file: CONFIG_FILE_NAME })}</Text>
        <List size="sm" spacing={2} type="ordered">
          <List.Item>{t('package.step1')}</List.Item>
          <List.Item>{t('package.step2', { file: CONFIG_FILE_NAME })}</List.Item>
          <List.Item>
            {t('package.step3')} <Code style={{ wordBreak: 'break-all' }}>{`sudo systemctl enable --now ${SERVICE_NAME}`}</Code>
          </List.Item>
        </List>
        <Text size="xs" c="dimmed" data-testid="package-windows">
          {t('package.windows')} <Code style={{ wordBreak: 'break-all' }}>{AGENT_WINDOWS_INSTALL_COMMAND}</Code>
        </Text>
        <Group gap="xs">
          <Button leftSection={<IconDownload size={16} />} loading={download.isPending} onClick={start} data-testid="package-download-button">
            {t('package.download')}
          </Button>
          {download.isPending && (
            <Text size="xs" c="dimmed">
              {t('package.building')}
            </Text>
          )}
        </Group>
        {saved && !download.isPending && (
          <Alert color="green" icon={<IconCheck size={18} />} p="xs" data-testid="package-saved">
            {t('package.saved', { file: saved })}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
