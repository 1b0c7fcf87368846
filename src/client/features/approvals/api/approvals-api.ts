/** Approval calls (spec 2 §7): the request's info, agree / disagree (GET with uuid) */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { ApprovalDecisionResult, PoolConfInfo } from '@shared/schemas/approvals';

export const approvalKeys = {
  info: (uuid: string) => ['approvals', 'info', uuid] as const,
};

export function usePoolConfInfo(uuid: string | null) {
  return useQuery({
    queryKey: approvalKeys.info(uuid ?? ''),
    queryFn: () => api.get<PoolConfInfo>('/api/minerv2/getPoolConfInfo', { uuid: uuid as string }),
    enabled: Boolean(uuid),
    retry: false,
  });
}

export function useDecide(uuid: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (decision: 'agree' | 'disagree') =>
      api.get<ApprovalDecisionResult>(decision === 'agree' ? '/api/minerv2/agreeMinerBatchSetPool' : '/api/minerv2/disagreeMinerBatchSetPool', { uuid }),
    onSettled: () => qc.invalidateQueries({ queryKey: approvalKeys.info(uuid) }),
  });
}
