import { ActionIcon, Alert, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';
import { agentCommand } from '../lib/agent-command';

export interface FarmSecretPanelProps {
  agentKey: string;
  secret: string;
}

function CopyValue({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useTranslation('farms');
  // A tap target of 34 px on a phone (28 px otherwise): copying the secret is what this dialog is for.
  const phone = usePhone();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid={testId}>
          {value}
        </Code>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('secret.copied') : t('secret.copy')} withArrow position="left">
              <ActionIcon color={copied ? 'teal' : 'gray'} variant="subtle" size={phone ? 'lg' : undefined} onClick={copy} aria-label={`${t('secret.copy')}: ${label}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** A farm's agent secret, shown once after creation or rotation, with the command that starts the agent. */
export function FarmSecretPanel({ agentKey, secret }: FarmSecretPanelProps) {
  const { t } = useTranslation('farms');
  return (
    <Stack gap="md" data-testid="farm-secret-panel">
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title={t('secret.onceTitle')}>
        {t('secret.onceBody')}
      </Alert>
      <CopyValue label={t('secret.agentKey')} value={agentKey} testId="farm-secret-key" />
      <CopyValue label={t('secret.secret')} value={secret} testId="farm-secret-value" />
      <CopyValue label={t('secret.command')} value={agentCommand(window.location.origin, agentKey, secret)} testId="farm-secret-command" />
      <Text size="xs" c="dimmed">
        {t('secret.commandHelp')}
      </Text>
    </Stack>
  );
}
