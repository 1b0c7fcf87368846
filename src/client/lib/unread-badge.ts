/** Notification bell badge (spec 1 §4): "99+" above 99; a smaller, round style below 10; hidden at 0. */
export interface UnreadBadge {
  visible: boolean;
  text: string;
  /** Below 10: a round dot-sized badge; from 10: a wider pill. */
  compact: boolean;
}

export function unreadBadge(count: number | null | undefined): UnreadBadge {
  const n = typeof count === 'number' && Number.isFinite(count) ? Math.max(0, Math.floor(count)) : 0;
  if (n === 0) return { visible: false, text: '', compact: true };
  return { visible: true, text: n > 99 ? '99+' : String(n), compact: n < 10 };
}

export const UNREAD_REFRESH_MS = 60_000;
export const NOTIFICATION_PAGE_SIZE = 5;
