/** The dashboard's reads (spec 1 dashboard, spec 3 §9 ranges) and their TanStack Query hooks. */
import { useQuery } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { HostInfo } from '@shared/schemas/farm';
import type { FarmSeriesPoint } from '@shared/schemas/miner';
import type { DashboardSeriesRange, DashboardSummary } from '@shared/schemas/miner-records';

/** Figures refresh every 60 s while the page is visible (spec 1 §9 polling default). */
export const DASHBOARD_REFRESH_MS = 60_000;

const keys = {
  summary: (agentKey: string, tz: number) => ['dashboard', 'summary', agentKey, tz] as const,
  series: (agentKey: string, range: DashboardSeriesRange) => ['dashboard', 'series', agentKey, range] as const,
  host: (agentKey: string) => ['dashboard', 'host', agentKey] as const,
};

const poll = { refetchInterval: DASHBOARD_REFRESH_MS, refetchIntervalInBackground: false } as const;

/** Minutes east of UTC of this browser, so "today" starts at local midnight. */
export function browserTzOffsetMin(): number {
  return -new Date().getTimezoneOffset();
}

export function useDashboardSummary(agentKey: string) {
  const tz = browserTzOffsetMin();
  return useQuery({
    queryKey: keys.summary(agentKey, tz),
    queryFn: ({ signal }) => api.get<DashboardSummary>('/api/dashboard/summary', { agentKey, tzOffsetMin: tz }, { signal }),
    ...poll,
  });
}

export function useDashboardSeries(agentKey: string, range: DashboardSeriesRange) {
  return useQuery({
    queryKey: keys.series(agentKey, range),
    queryFn: ({ signal }) => api.get<FarmSeriesPoint[]>('/api/dashboard/series', { agentKey, range }, { signal }),
    ...poll,
  });
}

/** The agent's computer (host info), for users holding the host-info key. */
export function useDashboardHost(agentKey: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.host(agentKey),
    queryFn: ({ signal }) => api.get<HostInfo>('/api/agent/hostInfo/detail', { agentKey }, { signal }),
    enabled,
    ...poll,
  });
}
