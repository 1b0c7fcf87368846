/** Miner record calls (off-shelf records, SN override, operation log, history logs) and their query hooks. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { Page } from '@shared/schemas/common';
import type { RepairStatus } from '@shared/miner-labels';
import type { HistoryLogInfo, MinerOpLogRow, OffShelfRow, UpdateSnResult } from '@shared/schemas/miner-records';
import type { MaintenanceChangeResult, MaintenancePage } from '@shared/schemas/off-shelf-maintenance';
import type { AnalysisResult, AnalysisStarted } from '@shared/schemas/fault-analysis';
import { minerKeys } from './miners-api';

export const recordKeys = {
  offShelf: (agentKey: string, keyword: string, page: number, pageSize: number) => ['miner-records', 'off-shelf', agentKey, keyword, page, pageSize] as const,
  offShelfAll: ['miner-records', 'off-shelf'] as const,
  opLog: (agentKey: string, ip: string, page: number) => ['miner-records', 'op-log', agentKey, ip, page] as const,
  opLogAll: (agentKey: string, ip: string) => ['miner-records', 'op-log', agentKey, ip] as const,
  historyLog: (agentKey: string, id: string) => ['miner-records', 'history-log', agentKey, id] as const,
};

export function useOffShelf(agentKey: string, keyword: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: recordKeys.offShelf(agentKey, keyword, page, pageSize),
    queryFn: ({ signal }) => api.get<Page<OffShelfRow>>('/api/miner/offShelfList', { agentKey, keyword: keyword || undefined, page, pageSize }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useOnShelf(agentKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ips: string[]) => api.post<{ changed: string[] }>('/api/miner/onShelf', { agentKey, ips }, { as: 'json' }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: recordKeys.offShelfAll });
      await qc.invalidateQueries({ queryKey: minerKeys.all }); // back in the on-shelf list
    },
  });
}

export function useUpdateSn(agentKey: string, ip: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (sn: string) => api.post<UpdateSnResult>('/api/miner/updateSn', { agentKey, ip, sn }, { as: 'json' }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: minerKeys.detail(agentKey, ip) });
      await qc.invalidateQueries({ queryKey: recordKeys.opLogAll(agentKey, ip) });
    },
  });
}

export function useMinerOpLog(agentKey: string, ip: string, page: number) {
  return useQuery({
    queryKey: recordKeys.opLog(agentKey, ip, page),
    queryFn: ({ signal }) => api.get<Page<MinerOpLogRow>>('/api/miner/opLog', { agentKey, ip, page, pageSize: 20 }, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateHistoryLog(agentKey: string, ip: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ id: string; status: string }>('/api/miner/historyLog', { agentKey, ip }, { as: 'json' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: recordKeys.opLogAll(agentKey, ip) }),
  });
}

/** Polls a history-log request every 2 s until it is done or failed. */
export function useHistoryLogStatus(agentKey: string, id: string | null) {
  return useQuery({
    queryKey: recordKeys.historyLog(agentKey, id ?? ''),
    queryFn: ({ signal }) => api.get<HistoryLogInfo>('/api/miner/historyLog/status', { agentKey, id: id ?? '' }, { signal }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'done' || q.state.data.status === 'failed') ? false : 2000),
  });
}

/** Off-shelf maintenance (/unshelve-miner/maintain): the off-shelf miners with their repair status, set a status, back on shelf. */
export const maintainKeys = {
  all: ['miner-records', 'maintain'] as const,
  list: (agentKey: string, status: RepairStatus | null, keyword: string, page: number, pageSize: number) =>
    ['miner-records', 'maintain', agentKey, status, keyword, page, pageSize] as const,
};

export function useMaintenance(agentKey: string, status: RepairStatus | null, keyword: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: maintainKeys.list(agentKey, status, keyword, page, pageSize),
    queryFn: ({ signal }) =>
      api.get<MaintenancePage>('/api/miner/maintain/list', { agentKey, status: status ?? undefined, keyword: keyword || undefined, page, pageSize }, { signal }),
    placeholderData: keepPreviousData,
  });
}

function useMaintenanceChange<V>(agentKey: string, path: string, body: (v: V) => Record<string, string | readonly string[] | undefined>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => api.post<MaintenanceChangeResult>(path, { agentKey, ...body(v) }, { as: 'json' }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: maintainKeys.all });
      await qc.invalidateQueries({ queryKey: recordKeys.offShelfAll });
      await qc.invalidateQueries({ queryKey: minerKeys.all });
    },
  });
}

export function useSetRepairStatus(agentKey: string) {
  return useMaintenanceChange<{ ips: string[]; status: RepairStatus; note?: string }>(agentKey, '/api/miner/maintain/status', (v) => v);
}

export function useMaintainOnShelf(agentKey: string) {
  return useMaintenanceChange<string[]>(agentKey, '/api/miner/maintain/onShelf', (ips) => ({ ips }));
}

/** Fault analysis of one miner (POST /api/ai/analysis, then its status and result). */
export const analysisKeys = {
  result: (agentKey: string, id: string, locale: string) => ['miner-records', 'analysis', agentKey, id, locale] as const,
};

export function useStartAnalysis(agentKey: string, ip: string) {
  return useMutation({ mutationFn: () => api.post<AnalysisStarted>('/api/ai/analysis', { agentKey, ip }, { as: 'json' }) });
}

/** The result of a run, polled while it is not finished; asked again when the interface language changes (its texts are the server's). */
export function useAnalysisResult(agentKey: string, id: string | null, locale: string) {
  return useQuery({
    queryKey: analysisKeys.result(agentKey, id ?? '', locale),
    queryFn: ({ signal }) => api.get<AnalysisResult>('/api/ai/result', { agentKey, id: id ?? '' }, { signal }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'pending' || q.state.data.status === 'running') ? 2000 : false),
  });
}
