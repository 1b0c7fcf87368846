import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { MinerLoginFamily, MinerLoginRow } from '@shared/schemas/miner-logins';

export const minerLoginKeys = { list: (agentKey: string) => ['farms', 'minerLogins', agentKey] as const };

/** The farm's miner logins (never their passwords). */
export function useMinerLogins(agentKey: string) {
  return useQuery({
    queryKey: minerLoginKeys.list(agentKey),
    queryFn: ({ signal }) => api.get<MinerLoginRow[]>('/api/agent/minerLogins', { agentKey }, { signal }),
  });
}

export interface MinerLoginInput {
  agentKey: string;
  id?: string;
  family: MinerLoginFamily;
  user: string;
  /** Empty when editing: the stored password stays. */
  password: string;
}

export function useSaveMinerLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...rest }: MinerLoginInput) => api.post<MinerLoginRow>('/api/agent/minerLogins/save', { ...rest, ...(id ? { id } : {}) }),
    onSuccess: (_r, input) => qc.invalidateQueries({ queryKey: minerLoginKeys.list(input.agentKey) }),
  });
}

export function useDeleteMinerLogin(agentKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<null>('/api/agent/minerLogins/delete', { agentKey, id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: minerLoginKeys.list(agentKey) }),
  });
}
