/**
 * Tabs of the pool settings page (spec 2 §2: /setting/agent/pool and /setting/agent/pool/{tab}). The tab is
 * read from the path's last segment when the router serves /setting/agent/pool/{tab}, else from ?tab=.
 */
export const POOL_TABS = ['groups', 'subAccounts', 'whitelist'] as const;
export type PoolTab = (typeof POOL_TABS)[number];

export function isPoolTab(value: unknown): value is PoolTab {
  return typeof value === 'string' && (POOL_TABS as readonly string[]).includes(value);
}

export function tabFromLocation(pathname: string, query: string | null): PoolTab {
  const m = /^\/setting\/agent\/pool\/([^/]+)\/?$/.exec(pathname);
  const fromPath = m?.[1];
  if (isPoolTab(fromPath)) return fromPath;
  return isPoolTab(query) ? query : 'groups';
}
