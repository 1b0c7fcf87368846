/** Reads about the selected farm used by the shell and the dashboard (spec 1 §7). */
import { useQuery } from '@tanstack/react-query';
import type { FarmInfo, NucStatus } from '@shared/schemas/farm';
import { api } from './api-client';
import { useAgentKey } from './agent-key';
import { NUC_POLL_MS } from './nuc-status';

export const farmKeys = {
  all: ['farm'] as const,
  info: (agentKey: string) => ['farm', 'info', agentKey] as const,
  status: (agentKey: string) => ['farm', 'nuc-status', agentKey] as const,
};

/** NUC status, polled every 30 s while the page is visible. */
export function useNucStatus() {
  const agentKey = useAgentKey();
  return useQuery({
    queryKey: farmKeys.status(agentKey ?? ''),
    queryFn: () => api.get<NucStatus>('/api/agent/status', { agentKey: agentKey ?? undefined }),
    enabled: agentKey !== null,
    refetchInterval: NUC_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function useFarmInfo() {
  const agentKey = useAgentKey();
  return useQuery({
    queryKey: farmKeys.info(agentKey ?? ''),
    queryFn: () => api.get<FarmInfo>('/api/agent/info', { agentKey: agentKey ?? undefined }),
    enabled: agentKey !== null,
  });
}
