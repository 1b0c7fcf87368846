/**
 * Texts of the outbox panels (the console's drawer and the field app's sync panel): sizes, times and the state of a
 * waiting change, the same in both.
 */
import type { TFunction } from 'i18next';
import type { OutboxEntry } from './db';

/** Bytes in B / KB / MB / GB / TB (1024-based), localised digits. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: i === 0 ? 0 : 1 }).format(v)} ${units[i]}`;
}

/** A moment as hours and minutes when it is today, else date and time (short forms). */
export function timeText(ms: number, locale: string, now = new Date()): string {
  const d = new Date(ms);
  const sameDay = now.toDateString() === d.toDateString();
  return sameDay ? d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }) : d.toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
}

/** What a waiting change is doing: sending, failed (attempts, reason, next try), paused (signed out) or pending. */
export function queueStateText(entry: OutboxEntry, paused: boolean, t: TFunction<'offline'>, locale: string): string {
  if (entry.state === 'sending') return t('queue.sending');
  if (entry.state === 'failed') {
    return t('queue.failed', {
      attempts: entry.attempts,
      reason: entry.lastError?.status === 0 ? t('queue.networkError') : (entry.lastError?.message ?? ''),
      time: timeText(entry.nextAttemptAt, locale),
    });
  }
  return paused ? t('queue.paused') : t('queue.pending');
}
