/**
 * Shell-level reads shared by every screen (spec 1 §7): public config, current user, the user's farms,
 * menus and permissions of the selected farm, region, self-miner flag. Query keys live here so that any
 * screen can invalidate them.
 */
import { useQuery } from '@tanstack/react-query';
import type { CurrentUser, PublicConfig } from '@shared/schemas/auth';
import type { UserMenus } from '@shared/schemas/access';
import type { Option } from '@shared/schemas/common';
import type { RegionInfo } from '@shared/schemas/farm';
import { api } from './api-client';
import { useAgentKey } from './agent-key';

export const sessionKeys = {
  all: ['session'] as const,
  publicConfig: ['session', 'public-config'] as const,
  currentUser: ['session', 'current-user'] as const,
  farms: ['session', 'farm-options'] as const,
  menus: (agentKey: string | null) => ['session', 'menus', agentKey ?? ''] as const,
  region: (agentKey: string) => ['session', 'region', agentKey] as const,
  selfManage: (agentKey: string) => ['session', 'self-manage', agentKey] as const,
};

export const fetchPublicConfig = () => api.get<PublicConfig>('/api/config/public');

export function usePublicConfig() {
  return useQuery({ queryKey: sessionKeys.publicConfig, queryFn: fetchPublicConfig, staleTime: 60_000 });
}

/** userCurrent without the 401 redirect: the layout decides (login page, or the cached user offline). */
export const fetchCurrentUser = () => api.get<CurrentUser>('/api/userv2/userCurrent', {}, { quiet401: true });

export function useCurrentUser() {
  return useQuery({ queryKey: sessionKeys.currentUser, queryFn: fetchCurrentUser, staleTime: 60_000 });
}

export function useFarmOptions(enabled = true) {
  return useQuery({
    queryKey: sessionKeys.farms,
    queryFn: () => api.get<Option[]>('/api/options/agent'),
    enabled,
  });
}

export function useUserMenus(enabled = true) {
  const agentKey = useAgentKey();
  return useQuery({
    queryKey: sessionKeys.menus(agentKey),
    queryFn: () => api.get<UserMenus>('/api/role/userAgentMenus', { agentKey: agentKey ?? undefined }),
    enabled,
  });
}

export function useRegion() {
  const agentKey = useAgentKey();
  return useQuery({
    queryKey: sessionKeys.region(agentKey ?? ''),
    queryFn: () => api.get<RegionInfo>('/api/agent/getAgentRegion', { agentKey: agentKey ?? undefined }),
    enabled: agentKey !== null,
  });
}

export function useSelfManage() {
  const agentKey = useAgentKey();
  return useQuery({
    queryKey: sessionKeys.selfManage(agentKey ?? ''),
    queryFn: () => api.get<boolean>('/api/minerv2/isSelfManage', { agentKey: agentKey ?? undefined }),
    enabled: agentKey !== null,
  });
}

/** Permission helper for pages: whether the user holds a menu or operation key on the selected farm. */
export function usePermissions(): { has: (key: number) => boolean; loaded: boolean; selfMiners: boolean } {
  const user = useCurrentUser();
  const menus = useUserMenus(Boolean(user.data));
  const set = new Set(menus.data?.permissions ?? []);
  return {
    has: (key: number) => Boolean(user.data?.isAdmin) || set.has(key),
    loaded: menus.data !== undefined,
    selfMiners: Boolean(menus.data?.selfMiners),
  };
}
