/** Batch operation calls (spec 3 §7: /api/minerv2/<op>, sendCode, uploadIpList, batchProgress, /api/log/batchList). */
import { useQuery } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type {
  BatchListResult,
  BatchLogRow,
  BatchOp,
  BatchProgress,
  BatchQueuedResult,
  IpListUploadResult,
  SendCodeChannel,
  SendCodeResult,
} from '@shared/schemas/batch-operations';
import type { Page } from '@shared/schemas/common';
import { type BatchTarget, progressFinished } from '../lib/batch-target';
import type { ApprovalPendingResult } from '@shared/schemas/approvals';

export const PROGRESS_POLL_MS = 2000;

export const batchKeys = {
  all: ['batch'] as const,
  progress: (agentKey: string, taskId: string) => [...batchKeys.all, 'progress', agentKey, taskId] as const,
  log: (agentKey: string, page: number) => [...batchKeys.all, 'log', agentKey, page] as const,
};

/** Queued for the agent, answered per miner (record-only list ops), or sent to the farm's approver first. */
export type BatchAnswer = BatchQueuedResult | BatchListResult | ApprovalPendingResult;

export function runBatchOp(op: BatchOp, agentKey: string, target: BatchTarget | null, params: Record<string, string | number | boolean>, idempotencyKey: string): Promise<BatchAnswer> {
  return api.post<BatchAnswer>(`/api/minerv2/${op}`, { agentKey, ...(target ?? {}), ...params }, { idempotencyKey });
}

export function sendCode(channel: SendCodeChannel): Promise<SendCodeResult> {
  return api.post<SendCodeResult>('/api/minerv2/sendCode', { channel });
}

export function uploadIpList(agentKey: string, file: File): Promise<IpListUploadResult> {
  const fd = new FormData();
  fd.set('agentKey', agentKey);
  fd.set('fileName', file.name);
  fd.set('file', file, file.name);
  return api.post<IpListUploadResult>('/api/minerv2/uploadIpList', fd);
}

/** Polls every 2 s until the batch is finished. */
export function useBatchProgress(agentKey: string, taskId: string | null) {
  return useQuery({
    queryKey: batchKeys.progress(agentKey, taskId ?? ''),
    queryFn: ({ signal }) => api.get<BatchProgress>('/api/minerv2/batchProgress', { agentKey, taskId: taskId ?? '' }, { signal }),
    enabled: taskId !== null,
    refetchInterval: (q) => (progressFinished(q.state.data) ? false : PROGRESS_POLL_MS),
  });
}

export function useBatchLog(agentKey: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: batchKeys.log(agentKey, page),
    queryFn: ({ signal }) => api.get<Page<BatchLogRow>>('/api/log/batchList', { agentKey, page, pageSize: 20 }, { signal }),
    enabled,
    refetchInterval: enabled ? 10_000 : false,
  });
}
