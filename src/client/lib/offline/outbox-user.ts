/**
 * Whose changes the outbox may send: the user logged in on this page. Kept apart from outbox.ts (no Dexie) so the
 * console's session gate and the field app set it without loading the offline chunk.
 *
 * Every entry is stamped with its author when queued (outbox.ts `enqueue`). The replayer sends only the current
 * user's entries: a change made by one technician and still waiting when another logs in on the same phone waits
 * for its author instead of reaching the server under the other's session (the server records the sender as the
 * author). While no user is known (start-up, after logout) stamped entries wait.
 */
import { useSyncExternalStore } from 'react';

let current: string | null = null;
const listeners = new Set<() => void>();

export function setOutboxUser(id: string | null): void {
  if (current === id) return;
  current = id;
  for (const l of listeners) l();
}

export function outboxUser(): string | null {
  return current;
}

export function subscribeOutboxUser(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOutboxUser(): string | null {
  return useSyncExternalStore(subscribeOutboxUser, outboxUser, outboxUser);
}

/** Whether the user may send (and sees) an entry: their own, or one queued before entries carried an author. */
export function isOwnEntry(entry: { userId?: string | undefined }, user: string | null = current): boolean {
  return entry.userId === undefined || entry.userId === user;
}
