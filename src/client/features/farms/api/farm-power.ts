import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { FarmPower } from '@shared/schemas/farm';

const powerKey = (agentKey: string) => ['farms', 'power', agentKey] as const;

/** The farm's power limit and what it draws now (refreshed every minute, as the agent's readings come). */
export function useFarmPower(agentKey: string) {
  return useQuery({
    queryKey: powerKey(agentKey),
    queryFn: ({ signal }) => api.get<FarmPower>('/api/agent/power', { agentKey }, { signal }),
    refetchInterval: 60_000,
  });
}

/** setAgentPower: the farm's limit in kW (0 = none). */
export function useSetFarmPowerLimit(agentKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (powerLimitKw: number) => api.post<{ powerLimitKw: number }>('/api/minerv2/setAgentPower', { agentKey, powerLimitKw: String(powerLimitKw) }),
    onSuccess: () => qc.invalidateQueries({ queryKey: powerKey(agentKey) }),
  });
}
