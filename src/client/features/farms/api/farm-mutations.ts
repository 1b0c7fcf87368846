import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import { sessionKeys } from '@client/lib/session-api';
import type { FarmInfo, FarmSecret } from '@shared/schemas/farm';
import { farmKeys } from './farm-keys';

export interface FarmBody {
  agentName: string;
  agentKey: string;
  noticeEmails: string;
  agentAddr: string;
  selfManaged: boolean;
}

export function createFarm(body: FarmBody): Promise<FarmSecret> {
  return api.post<FarmSecret>('/api/agent/createv2', { ...body });
}

export function updateFarm(body: FarmBody): Promise<FarmInfo> {
  return api.post<FarmInfo>('/api/agent/updatev2', { ...body });
}

export function deleteFarm(agentKey: string): Promise<null> {
  return api.post<null>('/api/agent/deletev2', { agentKey });
}

export function rotateFarmSecret(agentKey: string): Promise<FarmSecret> {
  return api.post<FarmSecret>('/api/agent/rotateSecret', { agentKey });
}

/** A farm change also changes the header's farm selector (session farm options). */
function refreshFarmLists(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: farmKeys.all }),
    queryClient.invalidateQueries({ queryKey: sessionKeys.farms }),
  ]);
}

export function useCreateFarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFarm,
    onSuccess: () => refreshFarmLists(queryClient),
  });
}

export function useUpdateFarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFarm,
    onSuccess: (info) => {
      queryClient.setQueryData(farmKeys.info(info.agentKey), info);
      return refreshFarmLists(queryClient);
    },
  });
}

export function useDeleteFarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFarm,
    onSuccess: (_data, agentKey) => {
      queryClient.removeQueries({ queryKey: farmKeys.info(agentKey) });
      return refreshFarmLists(queryClient);
    },
  });
}

export function useRotateFarmSecret() {
  return useMutation({ mutationFn: rotateFarmSecret });
}
