/** A farm without miners yet: where they come from (scan IP ranges) and the way there. */
import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconNetwork } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

export function NoMinersCard({ canEditRanges }: { canEditRanges: boolean }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card withBorder padding="lg" data-testid="dashboard-no-miners">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon size={44} radius="xl" variant="light">
          <IconNetwork size={24} />
        </ThemeIcon>
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Title order={4}>{t('noMiners.title')}</Title>
          <Text size="sm" c="dimmed">
            {canEditRanges ? t('noMiners.hint') : t('noMiners.askAdmin')}
          </Text>
          {canEditRanges && (
            <Group>
              <Button component={Link} to="/setting/agent/ip" size="sm" data-testid="dashboard-scan-ranges">
                {t('noMiners.action')}
              </Button>
            </Group>
          )}
        </Stack>
      </Group>
    </Card>
  );
}
