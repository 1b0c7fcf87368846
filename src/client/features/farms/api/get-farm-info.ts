import { useQuery } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { FarmInfo, NucStatus } from '@shared/schemas/farm';
import { farmKeys } from './farm-keys';

export function getFarmInfo(agentKey: string): Promise<FarmInfo> {
  return api.get<FarmInfo>('/api/agent/info', { agentKey });
}

export function getFarmStatus(agentKey: string): Promise<NucStatus> {
  return api.get<NucStatus>('/api/agent/status', { agentKey });
}

export function useFarmInfo(agentKey: string | null) {
  return useQuery({
    queryKey: farmKeys.info(agentKey ?? ''),
    queryFn: () => getFarmInfo(agentKey ?? ''),
    enabled: Boolean(agentKey),
  });
}

/** NUC status of one farm, polled every 60 s (spec 1 §9 polling helper default). */
export function useFarmStatus(agentKey: string | null) {
  return useQuery({
    queryKey: farmKeys.status(agentKey ?? ''),
    queryFn: () => getFarmStatus(agentKey ?? ''),
    enabled: Boolean(agentKey),
    refetchInterval: 60_000,
  });
}
