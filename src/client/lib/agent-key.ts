/**
 * The selected farm (agentKey, spec 1 §4). Kept per tab in sessionStorage, and the last choice in
 * localStorage so that a new tab, or the app started offline, opens on the last farm.
 * A tiny external store: React components read it with useAgentKey(); the API client reads getAgentKey().
 */
import { useSyncExternalStore } from 'react';
import { readStorage, writeStorage } from './safe-storage';

export const SESSION_AGENT_KEY = 'hf.agentKey';
export const LAST_AGENT_KEY = 'hf.lastAgentKey';

let current: string | null = readStorage('session', SESSION_AGENT_KEY);
const listeners = new Set<() => void>();

export function getAgentKey(): string | null {
  return current;
}

/** The last farm used in any tab (offline start, new tab). */
export function getLastAgentKey(): string | null {
  return readStorage('local', LAST_AGENT_KEY);
}

export function setAgentKey(next: string | null): void {
  writeStorage('session', SESSION_AGENT_KEY, next);
  if (next) writeStorage('local', LAST_AGENT_KEY, next);
  if (next === current) return;
  current = next;
  for (const l of listeners) l();
}

/** Forget the farm (logout): the next user must not open on this user's farm. */
export function clearAgentKey(): void {
  writeStorage('local', LAST_AGENT_KEY, null);
  setAgentKey(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAgentKey(): string | null {
  return useSyncExternalStore(subscribe, getAgentKey, getAgentKey);
}

/**
 * Which farm to select from the user's farm list: this tab's farm, else the last farm, else the first one.
 * Null when the user has no farm.
 */
export function pickAgentKey(options: readonly { value: string }[], tab: string | null, last: string | null): string | null {
  const has = (k: string | null): k is string => k !== null && options.some((o) => o.value === k);
  if (has(tab)) return tab;
  if (has(last)) return last;
  return options[0]?.value ?? null;
}
