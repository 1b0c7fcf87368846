/**
 * Steps "customer management" and "pool config": what the farm already has (read from the server, so a
 * resumed wizard shows the real state) and the pages where they are managed. Both are optional for a
 * self-run farm; the wizard keeps its place when the user goes there and comes back.
 */
import { Alert, Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useCustomerCount, usePoolGroups } from '../api/farm-setup-api';

function Summary({ names, loading, failed, emptyText, countText, testId }: { names: string[] | undefined; loading: boolean; failed: boolean; emptyText: string; countText: string; testId: string }) {
  const { t } = useTranslation('farm-setup');
  if (failed) return <Alert color="gray">{t('hosting.noAccess')}</Alert>;
  if (loading) return <Text size="sm" c="dimmed">{t('feedback.loading')}</Text>;
  if (!names || names.length === 0) return <Text size="sm" c="dimmed" data-testid={`${testId}-empty`}>{emptyText}</Text>;
  return (
    <Stack gap={4} data-testid={testId}>
      <Badge variant="light">{countText}</Badge>
      <List size="sm">
        {names.slice(0, 8).map((n) => (
          <List.Item key={n}>{n}</List.Item>
        ))}
      </List>
      {names.length > 8 && <Text size="xs" c="dimmed">{t('hosting.more', { count: names.length - 8 })}</Text>}
    </Stack>
  );
}

export function CustomersStep({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('farm-setup');
  const customers = useCustomerCount(agentKey);
  return (
    <Stack gap="sm" data-testid="step-customers">
      <Text size="sm">{t('hosting.customersIntro')}</Text>
      <Summary names={customers.data} loading={customers.isPending} failed={customers.isError} emptyText={t('hosting.noCustomers')} countText={t('hosting.customerCount', { count: customers.data?.length ?? 0 })} testId="customers-summary" />
      <Group>
        <Button component={Link} to="/setting/customer" variant="light" rightSection={<IconArrowRight size={16} />}>
          {t('hosting.toCustomers')}
        </Button>
      </Group>
    </Stack>
  );
}

export function PoolsStep({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('farm-setup');
  const groups = usePoolGroups(agentKey);
  return (
    <Stack gap="sm" data-testid="step-pools">
      <Text size="sm">{t('hosting.poolsIntro')}</Text>
      <Summary names={groups.data} loading={groups.isPending} failed={groups.isError} emptyText={t('hosting.noPools')} countText={t('hosting.poolCount', { count: groups.data?.length ?? 0 })} testId="pools-summary" />
      <Group>
        <Button component={Link} to="/setting/agent/pool" variant="light" rightSection={<IconArrowRight size={16} />}>
          {t('hosting.toPools')}
        </Button>
      </Group>
    </Stack>
  );
}
