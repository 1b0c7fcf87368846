/**
 * Who is logged in, for the light field app (the console's SessionGate, without TanStack Query): public
 * config (set-up needed → /setup), the current user (no session → the console's /login, a full load), the
 * user's farms (the selected farm as in the console: this tab's, else the last one, else the first) and
 * whether the user may open the field pages on that farm. Offline, the service worker answers these reads
 * from its cache; failing that, the last answers this device saw (localStorage) open the app as it was.
 */
import { useCallback, useEffect, useState } from 'react';
import { findMenuByKey } from '@shared/menu-catalogue';
import type { UserMenus } from '@shared/schemas/access';
import type { CurrentUser, PublicConfig } from '@shared/schemas/auth';
import type { Option } from '@shared/schemas/common';
import { ApiError, api } from '@client/lib/api-client';
import { isExternalAddress } from '@client/lib/end-session';
import { getAgentKey, getLastAgentKey, pickAgentKey, setAgentKey, useAgentKey } from '@client/lib/agent-key';
import { resumeOutbox } from '@client/lib/offline/outbox';
import { setOutboxUser } from '@client/lib/offline/outbox-user';
import { readStorage, writeStorage } from '@client/lib/safe-storage';
import { FIELD_SESSION_KEY } from '@client/lib/field-landing';

const FIELD_PERMISSION = findMenuByKey('fieldHome')?.permission ?? null;

export interface SessionUser {
  id: string;
  user: string;
  isAdmin: boolean;
}

export type FieldSession =
  | { status: 'loading' }
  | { status: 'error'; retry: () => void }
  | { status: 'ready'; user: SessionUser; farms: Option[]; config: PublicConfig | null; fromDevice: boolean };

interface Snapshot {
  user: SessionUser;
  farms: Option[];
}

function readSnapshot(): Snapshot | null {
  try {
    const raw = readStorage('local', FIELD_SESSION_KEY);
    const s = raw ? (JSON.parse(raw) as Snapshot) : null;
    return s && typeof s.user?.id === 'string' && Array.isArray(s.farms) ? s : null;
  } catch {
    return null;
  }
}

export function forgetFieldSession(): void {
  writeStorage('local', FIELD_SESSION_KEY, null);
}

// The same reads as lib/session-api.ts (which brings TanStack Query along, kept out of this app).
const fetchPublicConfig = () => api.get<PublicConfig>('/api/config/public');
const fetchCurrentUser = () => api.get<CurrentUser>('/api/userv2/userCurrent', {}, { quiet401: true });

const unauthorized = (e: unknown) => e instanceof ApiError && String(e.code) === '401';

/** The console's persisted read cache (lib/query-client.ts): it holds the user whose session just ended. */
const QUERY_CACHE_STORAGE_KEY = 'hf.query-cache';

/**
 * The console's login page (a full load); after the login a phone lands on the field pages again. The
 * console's persisted read cache still holds the ended session's user: dropped, or the console would open
 * as that user and hand straight back to the field app.
 */
export function goToLogin(to = '/login'): void {
  forgetFieldSession();
  writeStorage('local', QUERY_CACHE_STORAGE_KEY, null);
  if (isExternalAddress(to)) window.location.assign(to);
  else if (window.location.pathname !== to) window.location.assign(to || '/login');
}

export function useFieldSession(): FieldSession {
  const [session, setSession] = useState<FieldSession>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => {
    setSession({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const config = await fetchPublicConfig().catch(() => null);
      if (cancelled) return;
      if (config?.setupNeeded) {
        window.location.assign('/setup');
        return;
      }
      let user: CurrentUser;
      try {
        user = await fetchCurrentUser();
      } catch (e) {
        if (cancelled) return;
        if (unauthorized(e)) return goToLogin(typeof (e as ApiError).data === 'string' ? ((e as ApiError).data as string) : '/login');
        const snap = readSnapshot();
        if (!snap) return setSession({ status: 'error', retry });
        // A new tab opened offline has no farm of its own yet: the same choice as online.
        const picked = pickAgentKey(snap.farms, getAgentKey(), getLastAgentKey());
        if (picked !== getAgentKey()) setAgentKey(picked);
        setOutboxUser(snap.user.id);
        setSession({ status: 'ready', user: snap.user, farms: snap.farms, config, fromDevice: true });
        return;
      }
      // The session works again: a queue paused by a 401 goes on, with this user's changes.
      setOutboxUser(user.id);
      resumeOutbox();
      const me: SessionUser = { id: user.id, user: user.user, isAdmin: user.isAdmin };
      let farms: Option[];
      let fromDevice = false;
      try {
        farms = await api.get<Option[]>('/api/options/agent');
      } catch (e) {
        if (cancelled || unauthorized(e)) return;
        const snap = readSnapshot();
        farms = snap && snap.user.id === me.id ? snap.farms : [];
        fromDevice = true;
      }
      if (cancelled) return;
      if (!fromDevice) writeStorage('local', FIELD_SESSION_KEY, JSON.stringify({ user: me, farms } satisfies Snapshot));
      const next = pickAgentKey(farms, getAgentKey(), getLastAgentKey());
      if (next !== getAgentKey()) setAgentKey(next);
      setSession({ status: 'ready', user: me, farms, config, fromDevice });
    })();
    return () => {
      cancelled = true;
    };
  }, [attempt, retry]);
  return session;
}

/**
 * Whether the user may open the field pages on the selected farm (menu key fieldHome): true for an
 * administrator, null while unknown; when the menus cannot be read (offline, nothing cached) the pages open —
 * the server checks every call anyway.
 */
export function useFieldPermission(user: SessionUser | null): boolean | null {
  const agentKey = useAgentKey();
  const [allowed, setAllowed] = useState<{ key: string | null; ok: boolean } | null>(null);
  useEffect(() => {
    if (!user || user.isAdmin || FIELD_PERMISSION === null) return;
    let cancelled = false;
    api.get<UserMenus>('/api/role/userAgentMenus', { agentKey: agentKey ?? undefined }).then(
      (m) => !cancelled && setAllowed({ key: agentKey, ok: m.permissions.includes(FIELD_PERMISSION) }),
      () => !cancelled && setAllowed({ key: agentKey, ok: true }),
    );
    return () => {
      cancelled = true;
    };
  }, [user, agentKey]);
  if (!user) return null;
  if (user.isAdmin || FIELD_PERMISSION === null) return true;
  return allowed && allowed.key === agentKey ? allowed.ok : null;
}
