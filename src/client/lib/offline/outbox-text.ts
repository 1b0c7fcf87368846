/**
 * Texts of the outbox panels (the console's drawer and the field app's sync panel): sizes, times and the state of a
 * waiting change, the same in both.
 */
import type { TFunction } from 'i18next';
import { DATE_FORMATS, formatDate } from '@shared/format/date';
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

/** A moment as HH:mm when it is today, else MM-DD HH:mm (spec 1 §9 formats, as the rest of the console writes times). */
export function timeText(ms: number, now = new Date()): string {
  const sameDay = now.toDateString() === new Date(ms).toDateString();
  return formatDate(ms, sameDay ? DATE_FORMATS.timeMinute : DATE_FORMATS.monthDayTime);
}

/** What a waiting change is doing: sending, failed (attempts, reason, next try), paused (signed out) or pending. */
export function queueStateText(entry: OutboxEntry, paused: boolean, t: TFunction<'offline'>): string {
  if (entry.state === 'sending') return t('queue.sending');
  if (entry.state === 'failed') {
    return t('queue.failed', {
      attempts: entry.attempts,
      reason: entry.lastError?.status === 0 ? t('queue.networkError') : (entry.lastError?.message ?? ''),
      time: timeText(entry.nextAttemptAt),
    });
  }
  return paused ? t('queue.paused') : t('queue.pending');
}
