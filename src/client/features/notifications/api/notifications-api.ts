/** Notification calls (spec 1 §7): paged list (5 a page), unread count, last unread, read one, read all. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@shared/schemas/common';
import type { Notification } from '@shared/schemas/notification';
import { api } from '@client/lib/api-client';
import { NOTIFICATION_PAGE_SIZE, UNREAD_REFRESH_MS } from '@client/lib/unread-badge';

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  unread: ['notifications', 'unread'] as const,
  unreadLast: ['notifications', 'unread-last'] as const,
};

export function useUnreadCount(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: () => api.get<number>('/api/notification/unread'),
    refetchInterval: UNREAD_REFRESH_MS,
    enabled,
  });
}

export function useUnreadLast(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.unreadLast,
    queryFn: () => api.get<Notification | null>('/api/notification/unReadLast'),
    refetchInterval: UNREAD_REFRESH_MS,
    enabled,
  });
}

export function useNotificationPages(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list,
    queryFn: ({ pageParam }) => api.get<Page<Notification>>('/api/notification/pagelist', { page: pageParam, pageSize: NOTIFICATION_PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.list.length, 0);
      return loaded < last.total && last.list.length > 0 ? pages.length + 1 : undefined;
    },
    enabled,
  });
}

function useRefreshNotifications() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
}

export function useMarkRead() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: (id: string) => api.post<null>('/api/notification/read', { id }),
    onSettled: refresh,
    onError: (err) => console.error('notification: mark read failed', err),
  });
}

export function useMarkAllRead() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: () => api.post<null>('/api/notification/readAll'),
    onSettled: refresh,
    onError: (err) => console.error('notification: read all failed', err),
  });
}
