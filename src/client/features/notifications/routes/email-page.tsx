/**
 * /email (spec 1 §2.1): the page links in Hashfield e-mails (alarms, notices, approvals) land on, rendered
 * without the main layout. It names where the link leads and opens it in the console; only same-site paths
 * are followed.
 */
import { Box, Button, Center, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { findMenuByPath } from '@shared/menu-catalogue';
import { BrandMark } from '@client/components/brand-mark';
import { LanguageSwitcher } from '@client/components/language-switcher';

export function emailTarget(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/email')) return '/';
  return raw;
}

export function EmailPage() {
  const { t } = useTranslation(['notifications', 'menu']);
  const [params] = useSearchParams();
  const target = emailTarget(params.get('redirect'));
  const entry = findMenuByPath(target.split('?')[0] ?? '/');
  const pageName = entry ? t(`menu:${entry.key}`) : null;
  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)" data-testid="email-page">
      <Group justify="space-between" px="md" h={56}>
        <BrandMark />
        <LanguageSwitcher />
      </Group>
      <Center px="sm" pt={{ base: 'md', sm: 48 }}>
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} w="100%" maw={480}>
          <Stack gap="md" align="center" ta="center">
            <IconMail size={48} stroke={1.4} color="var(--mantine-primary-color-filled)" />
            <Title order={3}>{t('email.title')}</Title>
            <Text c="dimmed">{t('email.hint')}</Text>
            {target !== '/' && (
              <Text size="sm">
                {t('email.target')} {pageName ? <b>{pageName}</b> : <Code>{target}</Code>}
              </Text>
            )}
            <Button component={Link} to={target} replace>
              {t('email.open')}
            </Button>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
