import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import { sessionKeys } from '@client/lib/session-api';
import type { Region } from '@shared/validation';
import type { RegionInfo } from '@shared/schemas/farm';

export function getFarmRegion(agentKey: string): Promise<RegionInfo> {
  return api.get<RegionInfo>('/api/agent/getAgentRegion', { agentKey });
}

export function updateFarmRegion(agentKey: string, region: Region): Promise<RegionInfo> {
  return api.post<RegionInfo>('/api/agent/updateAgentRegion', { agentKey, region, read: 1 }, { as: 'json' });
}

/** Shares the header's query key, so a change here shows in the header's region selector at once. */
export function useFarmRegion(agentKey: string | null) {
  return useQuery({
    queryKey: sessionKeys.region(agentKey ?? ''),
    queryFn: () => getFarmRegion(agentKey ?? ''),
    enabled: Boolean(agentKey),
  });
}

export function useUpdateFarmRegion(agentKey: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (region: Region) => updateFarmRegion(agentKey, region),
    onSuccess: (info) => {
      queryClient.setQueryData(sessionKeys.region(agentKey), info);
    },
  });
}
