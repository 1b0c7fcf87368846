import { useMemo } from 'react';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDeviceDesktop, IconDeviceMobile, IconLogout, IconUserCog } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataTable } from '@client/components/data-table/data-table';
import { queryTableState } from '@client/components/data-table/query-state';
import type { Column } from '@client/components/data-table/data-table-types';
import { useCurrentUser } from '@client/lib/session-api';
import { formatDate } from '@shared/format/date';
import { useRevokeSession, useSessions, type UserSession } from '../api/sessions';
import { PageHeader } from '@client/components/page-header';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { describeUserAgent } from '../lib/user-agent';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
    </Stack>
  );
}

/** /safety/accountSecurity: the signed-in user's sessions (with revoke) and a way to the user center. */
export function AccountSecurityPage() {
  const { t } = useTranslation('account');
  const me = useCurrentUser();
  const sessions = useSessions();
  const { mutate: revoke } = useRevokeSession();

  const columns = useMemo<Column<UserSession>[]>(() => {
    const confirmRevoke = (row: UserSession) =>
      modals.openConfirmModal({
        title: t('revoke.confirmTitle'),
        children: <Text size="sm">{t('revoke.confirmBody')}</Text>,
        labels: { confirm: t('revoke.confirm'), cancel: t('actions.cancel') },
        confirmProps: { color: 'red' },
        onConfirm: () =>
          revoke(row.id, {
            onSuccess: () => notifySuccess(t('feedback.operationSuccess')),
            onError: (error) => notifyFailure(error, t('feedback.failed')),
          }),
      });
    return [
      {
        key: 'device',
        title: t('columns.device'),
        width: 260,
        render: (r) => {
          const d = describeUserAgent(r.userAgent);
          const label = [d.browser, d.os].filter(Boolean).join(' · ') || t('sessions.unknownDevice');
          return (
            <Group gap={8} wrap="nowrap">
              <ThemeIcon variant="light" size="sm" color={r.current ? 'blue' : 'gray'}>
                {d.mobile ? <IconDeviceMobile size={14} /> : <IconDeviceDesktop size={14} />}
              </ThemeIcon>
              {r.current && (
                <Badge size="xs" variant="filled" style={{ flexShrink: 0 }} data-testid="current-session-badge">
                  {t('sessions.current')}
                </Badge>
              )}
              <Tooltip label={r.userAgent ?? t('sessions.unknownDevice')} withArrow multiline maw={360}>
                <Text size="sm" truncate>
                  {label}
                </Text>
              </Tooltip>
            </Group>
          );
        },
      },
      { key: 'ip', title: t('columns.ip'), width: 150, render: (r) => r.ip ?? '-' },
      { key: 'createdAt', title: t('columns.created'), width: 170, render: (r) => formatDate(r.createdAt) },
      { key: 'lastSeenAt', title: t('columns.lastSeen'), width: 170, render: (r) => formatDate(r.lastSeenAt) },
      { key: 'expiresAt', title: t('columns.expires'), width: 170, render: (r) => formatDate(r.expiresAt), defaultHidden: true },
      {
        key: 'actions',
        title: t('columns.actions'),
        width: 110,
        align: 'center',
        fixed: 'right',
        render: (r) =>
          r.current ? (
            <Text size="xs" c="dimmed">
              {t('sessions.thisDevice')}
            </Text>
          ) : (
            <Button size="compact-xs" variant="subtle" color="red" leftSection={<IconLogout size={14} />} onClick={() => confirmRevoke(r)}>
              {t('actions.revoke')}
            </Button>
          ),
      },
    ];
  }, [t, revoke]);

  const user = me.data;

  return (
    <Stack gap="md">
      <PageHeader title={t('title')} description={t('description')} />
      <Card withBorder padding="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Stack gap="sm" style={{ flex: 1, minWidth: 240 }}>
            <Title order={5}>{t('profile.title')}</Title>
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <Field label={t('profile.user')} value={user?.user ?? '-'} />
              <Field label={t('profile.email')} value={user?.email || t('profile.notBound')} />
              <Field label={t('profile.mobile')} value={user?.mobile ? `+${user.areaCode} ${user.mobile}` : t('profile.notBound')} />
            </SimpleGrid>
            <Text size="sm" c="dimmed">
              {t('profile.help')}
            </Text>
          </Stack>
          <Button component={Link} to="/user/center" variant="light" leftSection={<IconUserCog size={16} />}>
            {t('profile.userCenter')}
          </Button>
        </Group>
      </Card>
      <Stack gap={4}>
        <Title order={5}>{t('sessions.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('sessions.help')}
        </Text>
      </Stack>
      <DataTable<UserSession>
        prefKey="/safety/accountSecurity"
        ariaLabel={t('sessions.title')}
        columns={columns}
        rows={sessions.data ?? []}
        rowKey="id"
        {...queryTableState(sessions)}
        emptyText={t('sessions.empty')}
      />
    </Stack>
  );
}
