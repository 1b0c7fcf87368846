/**
 * Batch operation calls (spec 3 §7: /api/minerv2/<op>, sendCode, uploadIpList, batchProgress, /api/log/batchList) and
 * the pool data the set-pool dialog fills from (/api/minerv2/poolQuery, /poolSubAccountQuery), and the pool configuration
 * file (getuploadPoolConfigFile, uploadPoolConfig, applyPoolConfig).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, api, postFarmFile } from '@client/lib/api-client';
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
import type { PoolGroupChoice, SubAccountChoice } from '@shared/schemas/pool';
import type { PoolConfigApplyResult, PoolConfigUploadResult } from '@shared/schemas/pool-config-file';
import { progressFinished } from '@client/lib/batch-progress';
import type { BatchTarget, PoolConfigFileScope } from '../lib/batch-target';
import type { ApprovalPendingResult } from '@shared/schemas/approvals';

export const PROGRESS_POLL_MS = 2000;

export const batchKeys = {
  all: ['batch'] as const,
  progress: (agentKey: string, taskId: string) => [...batchKeys.all, 'progress', agentKey, taskId] as const,
  log: (agentKey: string, page: number) => [...batchKeys.all, 'log', agentKey, page] as const,
};

/** Kept apart from batchKeys: a batch that ran does not make the farm's pool groups stale. */
export const poolDataKeys = {
  all: ['minerPoolData'] as const,
  groups: (agentKey: string) => [...poolDataKeys.all, 'groups', agentKey] as const,
  subAccounts: (agentKey: string, keyword: string) => [...poolDataKeys.all, 'subAccounts', agentKey, keyword] as const,
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
  return postFarmFile<IpListUploadResult>('/api/minerv2/uploadIpList', agentKey, file);
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

/** The farm's pool groups for "fill from pool group", asked again whenever the dialog opens (one may have been added meanwhile). */
export function usePoolGroupChoices(agentKey: string) {
  return useQuery({
    queryKey: poolDataKeys.groups(agentKey),
    queryFn: ({ signal }) => api.get<PoolGroupChoice[]>('/api/minerv2/poolQuery', { agentKey }, { signal }),
    staleTime: 0,
  });
}

/**
 * The farm's sub-accounts matching `keyword` (server-side, at most 200), asked only while the picker is open; the
 * previous answer stays while the next keyword loads. Per-keyword answers are not kept across reloads.
 */
export function useSubAccountChoices(agentKey: string, keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: poolDataKeys.subAccounts(agentKey, keyword),
    queryFn: ({ signal }) => api.get<SubAccountChoice[]>('/api/minerv2/poolSubAccountQuery', { agentKey, ...(keyword ? { keyword } : {}) }, { signal }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    meta: { persist: false },
  });
}

/**
 * GET /api/minerv2/getuploadPoolConfigFile as a file of the scope; a refusal (an envelope) rejects with its message.
 */
export async function fetchPoolConfigFile(agentKey: string, scope: PoolConfigFileScope, locale: string): Promise<{ fileName: string; blob: Blob }> {
  const query = new URLSearchParams({ agentKey });
  if (scope.ips?.length) query.set('ips', scope.ips.join(','));
  if (scope.filter) query.set('filter', JSON.stringify(scope.filter));
  if (scope.exclude?.length) query.set('exclude', scope.exclude.join(','));
  const res = await fetch(`/api/minerv2/getuploadPoolConfigFile?${query.toString()}`, {
    credentials: 'include',
    headers: { I18N: locale, agentKey },
    signal: AbortSignal.timeout(120_000),
  });
  if (!res.ok || !/spreadsheetml/.test(res.headers.get('content-type') ?? '')) {
    const env = (await res.json().catch(() => null)) as { code: number | string; msg: string; data: unknown } | null;
    throw new ApiError(env?.msg ?? res.statusText, env?.code ?? res.status, res.status, env?.data ?? null);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'pool-config.xlsx';
  return { fileName: name, blob: await res.blob() };
}

export function uploadPoolConfig(agentKey: string, file: File): Promise<PoolConfigUploadResult> {
  return postFarmFile<PoolConfigUploadResult>('/api/minerv2/uploadPoolConfig', agentKey, file);
}

export function applyPoolConfig(agentKey: string, fileId: string, code: string, idempotencyKey: string): Promise<PoolConfigApplyResult> {
  return api.post<PoolConfigApplyResult>('/api/minerv2/applyPoolConfig', { agentKey, fileId, code }, { idempotencyKey });
}
