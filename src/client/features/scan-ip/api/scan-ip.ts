/** Scan IP range calls (spec 2 §7): the list of the current farm and its writes; every write reloads the list. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { ScanIpRange } from '@shared/schemas/scan-ip';

export const scanIpKeys = {
  all: ['scanIp'] as const,
  list: (agentKey: string) => [...scanIpKeys.all, 'list', agentKey] as const,
};

export function getScanIpList(agentKey: string): Promise<ScanIpRange[]> {
  return api.get<ScanIpRange[]>('/api/scanip/list', { agentKey });
}

export function useScanIpList(agentKey: string | null) {
  return useQuery({
    queryKey: scanIpKeys.list(agentKey ?? ''),
    queryFn: () => getScanIpList(agentKey as string),
    enabled: agentKey !== null,
  });
}

export interface SaveScanIpInput {
  agentKey: string;
  /** Edit when given, create otherwise. */
  scanIpId?: string;
  ipBegin: string;
  ipEnd: string;
  remark: string;
  /** Sent as the spec's client does; the server computes its own. */
  amount: number;
}

export interface DeleteScanIpInput {
  agentKey: string;
  ids: readonly string[];
}

function useReloadList() {
  const queryClient = useQueryClient();
  return (agentKey: string) => queryClient.invalidateQueries({ queryKey: scanIpKeys.list(agentKey) });
}

export function useSaveScanIp() {
  const reload = useReloadList();
  return useMutation({
    mutationFn: (input: SaveScanIpInput) => api.post<ScanIpRange>('/api/scanip/save', { ...input }),
    onSuccess: (_saved, input) => reload(input.agentKey),
  });
}

export function useBatchSaveScanIp() {
  const reload = useReloadList();
  return useMutation({
    mutationFn: (input: { agentKey: string; scanIpList: string }) => api.post<ScanIpRange[]>('/api/scanip/batchSave', { ...input }),
    onSuccess: (_saved, input) => reload(input.agentKey),
  });
}

export function useDeleteScanIp() {
  const reload = useReloadList();
  return useMutation({
    mutationFn: (input: DeleteScanIpInput) => api.post<{ deleted: number }>('/api/scanip/delete', { agentKey: input.agentKey, scanIpId: input.ids.join(',') }),
    onSuccess: (_result, input) => reload(input.agentKey),
  });
}
