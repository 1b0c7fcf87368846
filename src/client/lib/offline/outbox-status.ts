/**
 * What the header indicators of the console and of the field app show (offline-indicator.tsx, outbox-indicator.tsx):
 * the effective connectivity (connectivity.ts), the outbox's counts and its pause, and the label both read out —
 * "Online · 3 waiting · 1 refused" — with the hint of the server-unreachable state.
 */
import { useTranslation } from 'react-i18next';
import { type Connectivity, useConnectivity } from './connectivity';
import { type OutboxCounts, useOutboxCounts, useOutboxPaused } from './outbox';

export interface OutboxStatus extends Connectivity {
  unreachable: boolean;
  counts: OutboxCounts;
  /** Changes not sent yet (pending and failed, retried). */
  waiting: number;
  /** A 401 paused the outbox until the user signs in again. */
  paused: boolean;
  label: string;
  /** Why "server unreachable" (device online, our server not answering), else null. */
  hint: string | null;
}

/** The label of a status (the offline namespace's `indicator.*` and `session.title`). */
export function outboxStatusLabel(t: (key: string, options?: Record<string, unknown>) => string, s: Pick<OutboxStatus, 'online' | 'reason' | 'counts' | 'paused'>): string {
  const waiting = s.counts.pending + s.counts.failed;
  const parts = [s.online ? t('indicator.online') : s.reason === 'server-unreachable' ? t('indicator.unreachable') : t('indicator.offline')];
  if (waiting > 0) parts.push(t('indicator.pending', { count: waiting }));
  if (s.counts.dead > 0) parts.push(t('indicator.dead', { count: s.counts.dead }));
  if (s.paused) parts.push(t('session.title'));
  return parts.join(' · ');
}

export function useOutboxStatus(): OutboxStatus {
  const { t } = useTranslation('offline');
  const connectivity = useConnectivity();
  const counts = useOutboxCounts();
  const paused = useOutboxPaused();
  const unreachable = connectivity.reason === 'server-unreachable';
  return {
    ...connectivity,
    unreachable,
    counts,
    waiting: counts.pending + counts.failed,
    paused,
    label: outboxStatusLabel(t, { ...connectivity, counts, paused }),
    hint: unreachable ? t('indicator.unreachableHint') : null,
  };
}
