/** How to connect a farm's agent (NUC) when it has never reported (spec 1 §9 sizing; spec 2 wizard step 1). */
import { ActionIcon, Anchor, Card, Code, CopyButton, Group, List, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconPlugConnected } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';

function CopyValue({ value }: { value: string }) {
  const { t } = useTranslation('dashboard');
  // A tap target of 34 px on a phone (22 px otherwise).
  const phone = usePhone();
  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
      <Code style={{ overflowWrap: 'anywhere' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('copied') : t('copy')}>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('copy')} size={phone ? 'lg' : 'sm'}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

export interface ConnectAgentCardProps {
  agentKey: string;
  canOpenSettings: boolean;
}

export function ConnectAgentCard({ agentKey, canOpenSettings }: ConnectAgentCardProps) {
  const { t } = useTranslation('dashboard');
  // On a phone each label goes above its value: beside a 110 px label the server address broke in two
  // ("http://127.0.0.1" / ":8091") and the secret's hint was a narrow column.
  const phone = usePhone();
  const labelWidth = phone ? '100%' : 110;
  const labelGap = phone ? 2 : 'xs';
  const rowWrap = phone ? 'wrap' : 'nowrap';
  return (
    <Card withBorder padding="lg" data-testid="connect-agent-card">
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size="lg">
            <IconPlugConnected size={20} />
          </ThemeIcon>
          <div>
            <Title order={4}>{t('connect.title')}</Title>
            <Text size="sm" c="dimmed">{t('connect.subtitle')}</Text>
          </div>
        </Group>
        <List type="ordered" spacing="sm" size="sm">
          <List.Item>
            <Text size="sm" fw={500}>{t('connect.step1')}</Text>
            <Text size="xs" c="dimmed">{t('connect.sizing')}</Text>
          </List.Item>
          <List.Item>
            <Text size="sm" fw={500}>{t('connect.step2')}</Text>
            <Text size="xs" c="dimmed">{t('connect.versions')}</Text>
          </List.Item>
          <List.Item>
            <Text size="sm" fw={500}>{t('connect.step3')}</Text>
            <Stack gap={4} mt={4}>
              <Group gap={labelGap} wrap={rowWrap}>
                <Text size="xs" c="dimmed" w={labelWidth} style={{ flex: 'none' }}>{t('connect.server')}</Text>
                <CopyValue value={window.location.origin} />
              </Group>
              <Group gap={labelGap} wrap={rowWrap}>
                <Text size="xs" c="dimmed" w={labelWidth} style={{ flex: 'none' }}>{t('connect.farmKey')}</Text>
                <CopyValue value={agentKey} />
              </Group>
              <Group gap={labelGap} wrap={rowWrap} align="flex-start">
                <Text size="xs" c="dimmed" w={labelWidth} style={{ flex: 'none' }}>{t('connect.secret')}</Text>
                <Text size="xs">
                  {t('connect.secretHint')}{' '}
                  {canOpenSettings && (
                    <Anchor component={Link} to="/setting/agent/agent" size="xs">
                      {t('connect.openSettings')}
                    </Anchor>
                  )}
                </Text>
              </Group>
            </Stack>
          </List.Item>
          <List.Item>
            <Text size="sm" fw={500}>{t('connect.step4')}</Text>
            <Text size="xs" c="dimmed">{t('connect.waiting')}</Text>
          </List.Item>
        </List>
      </Stack>
    </Card>
  );
}
