/**
 * Notification bell (spec 1 §2.2, §4, §9): unread badge ("99+" above 99, round below 10), a 300×300 panel
 * listing 5 a page with infinite loading ("loading", "no more data"), click = mark read + open the notice,
 * "read all". Unread count and the last unread notice refresh every 60 s; a new unread notice pops up once.
 */
import { ActionIcon, Box, Button, Center, Group, Indicator, Loader, Popover, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconBell } from '@tabler/icons-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@shared/schemas/notification';
import { formatDate, isRecentDate } from '@shared/format/date';
import { lazyWithRetry } from '@client/lib/import-retry';
import { readStorage, writeStorage } from '@client/lib/safe-storage';
import { unreadBadge } from '@client/lib/unread-badge';
import { useMarkAllRead, useMarkRead, useNotificationPages, useUnreadCount, useUnreadLast } from '../api/notifications-api';

// The notice reader loads when a notice is first opened (not part of the first load).
const NoticeDialog = lazyWithRetry(() => import('./notice-dialog'), (m) => m.NoticeDialog);

export const PANEL_SIZE = 300;
const POPPED_KEY = 'hf.lastPoppedNotice';

function NoticeItem({ notice, onOpen }: { notice: Notification; onOpen: (n: Notification) => void }) {
  const { t } = useTranslation('notifications');
  return (
    <UnstyledButton
      onClick={() => onOpen(notice)}
      px="sm"
      py={8}
      w="100%"
      data-testid="notice-item"
      data-read={notice.isRead || undefined}
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap={8} wrap="nowrap" align="flex-start">
        <Box
          mt={6}
          w={8}
          h={8}
          style={{ borderRadius: 8, flex: 'none', background: notice.isRead ? 'transparent' : 'var(--mantine-color-red-6)' }}
          aria-label={notice.isRead ? undefined : t('unread')}
        />
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" fw={notice.isRead ? 400 : 600} truncate>
            {notice.title || t(`type.${notice.type}.title`, { defaultValue: t('dialog.title') })}
          </Text>
          <Text size="xs" c={isRecentDate(notice.publishTime) ? 'brand' : 'dimmed'}>
            {formatDate(notice.publishTime)}
          </Text>
        </Box>
      </Group>
    </UnstyledButton>
  );
}

function NoticeList({ onOpen }: { onOpen: (n: Notification) => void }) {
  const { t } = useTranslation('notifications');
  const pages = useNotificationPages(true);
  const viewport = useRef<HTMLDivElement>(null);
  const items = pages.data?.pages.flatMap((p) => p.list) ?? [];

  const handleScroll = ({ y }: { x: number; y: number }) => {
    const el = viewport.current;
    if (!el || !pages.hasNextPage || pages.isFetchingNextPage) return;
    if (y + el.clientHeight >= el.scrollHeight - 24) void pages.fetchNextPage({ cancelRefetch: false });
  };

  if (pages.isPending) {
    return (
      <Center h={PANEL_SIZE - 48}>
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">{t('loading')}</Text>
        </Group>
      </Center>
    );
  }
  if (pages.isError && items.length === 0) {
    return (
      <Center h={PANEL_SIZE - 48}>
        <Button variant="subtle" size="xs" onClick={() => void pages.refetch()}>
          {t('retry')}
        </Button>
      </Center>
    );
  }
  return (
    <ScrollArea h={PANEL_SIZE - 48} viewportRef={viewport} onScrollPositionChange={handleScroll} type="auto" data-testid="notice-list">
      {items.map((n) => (
        <NoticeItem key={n.id} notice={n} onOpen={onOpen} />
      ))}
      <Center py={8}>
        {pages.isFetchingNextPage ? (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="xs" c="dimmed">{t('loading')}</Text>
          </Group>
        ) : pages.hasNextPage ? (
          <Button variant="subtle" size="compact-xs" onClick={() => void pages.fetchNextPage({ cancelRefetch: false })} data-testid="notice-load-more">
            {t('loadMore')}
          </Button>
        ) : (
          <Text size="xs" c="dimmed" data-testid="notice-no-more">
            {items.length === 0 ? t('empty') : t('noMore')}
          </Text>
        )}
      </Center>
    </ScrollArea>
  );
}

export function NotificationBell() {
  const { t } = useTranslation('notifications');
  const [opened, setOpened] = useState(false);
  const [open, setOpen] = useState<Notification | null>(null);
  const unread = useUnreadCount();
  const last = useUnreadLast();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const badge = unreadBadge(unread.data);

  const handleOpen = (n: Notification) => {
    setOpened(false);
    setOpen(n);
    if (!n.isRead) markRead.mutate(n.id);
  };

  const openRef = useRef(handleOpen);
  useEffect(() => {
    openRef.current = handleOpen;
  });

  // The newest unread notice pops up once (per tab session) when it arrives.
  const lastNotice = last.data ?? null;
  useEffect(() => {
    if (!lastNotice || lastNotice.isRead || readStorage('session', POPPED_KEY) === lastNotice.id) return;
    writeStorage('session', POPPED_KEY, lastNotice.id);
    const id = `notice-${lastNotice.id}`;
    toasts.show({
      id,
      title: lastNotice.title || t(`type.${lastNotice.type}.title`, { defaultValue: t('dialog.title') }),
      message: (
        <Button
          size="compact-xs"
          variant="light"
          mt={4}
          onClick={() => {
            toasts.hide(id);
            openRef.current(lastNotice);
          }}
        >
          {t('view')}
        </Button>
      ),
      autoClose: 10_000,
    });
  }, [lastNotice, t]);

  return (
    <>
      <Popover width={PANEL_SIZE} position="bottom-end" shadow="md" opened={opened} onChange={setOpened} withinPortal trapFocus={false}>
        <Popover.Target>
          <Indicator
            label={badge.text}
            disabled={!badge.visible}
            size={badge.compact ? 16 : 18}
            color="red"
            offset={6}
            radius={badge.compact ? 'xl' : 'sm'}
            withBorder={!badge.compact}
            data-testid="unread-badge"
            data-compact={badge.compact || undefined}
            processing={false}
          >
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              onClick={() => setOpened((o) => !o)}
              aria-label={badge.visible ? t('bellUnread', { count: unread.data ?? 0 }) : t('bell')}
              data-testid="notification-bell"
            >
              <IconBell size={20} />
            </ActionIcon>
          </Indicator>
        </Popover.Target>
        <Popover.Dropdown p={0} h={PANEL_SIZE} data-testid="notification-panel">
          <Stack gap={0}>
            <Group justify="space-between" px="sm" h={48} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
              <Text fw={600} size="sm">
                {t('title')}
              </Text>
              <Button variant="subtle" size="compact-xs" onClick={() => markAll.mutate()} loading={markAll.isPending} disabled={!badge.visible} data-testid="notice-read-all">
                {t('readAll')}
              </Button>
            </Group>
            {opened && <NoticeList onOpen={handleOpen} />}
          </Stack>
        </Popover.Dropdown>
      </Popover>
      {open && (
        <Suspense fallback={null}>
          <NoticeDialog notice={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </>
  );
}
