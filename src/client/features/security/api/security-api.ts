/** Abnormal alarms (/alarm/security): suspicious-SSH records, the scan history, scan now, mark processed, reboot by range. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import { progressFinished } from '@client/lib/batch-progress';
import type { BatchProgress } from '@shared/schemas/batch-operations';
import type { Page } from '@shared/schemas/common';
import type {
  SecurityPage,
  SecurityProcessResult,
  SecurityRebootResult,
  SecurityRecordStatus,
  SecurityScanRow,
  SecurityScanStarted,
  SecuritySettings,
} from '@shared/schemas/security';

/** How often a running scan and a range reboot are asked again. */
export const SECURITY_POLL_MS = 3000;

export const securityKeys = {
  all: ['security'] as const,
  list: (agentKey: string, status: SecurityRecordStatus | null, keyword: string, page: number, pageSize: number) =>
    ['security', 'list', agentKey, status, keyword, page, pageSize] as const,
  scans: (agentKey: string, page: number) => ['security', 'scans', agentKey, page] as const,
  task: (agentKey: string, taskId: string) => ['security', 'task', agentKey, taskId] as const,
  settings: (agentKey: string) => ['security', 'settings', agentKey] as const,
};

export function useSecurityRecords(agentKey: string, status: SecurityRecordStatus | null, keyword: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: securityKeys.list(agentKey, status, keyword, page, pageSize),
    queryFn: ({ signal }) =>
      api.get<SecurityPage>('/api/security/list', { agentKey, status: status ?? undefined, keyword: keyword || undefined, page, pageSize }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The scan history; asked again every few seconds while a scan is queued or running. */
export function useSecurityScans(agentKey: string, page: number) {
  return useQuery({
    queryKey: securityKeys.scans(agentKey, page),
    queryFn: ({ signal }) => api.get<Page<SecurityScanRow>>('/api/security/scans', { agentKey, page, pageSize: 20 }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((s) => s.status !== 'done') ? SECURITY_POLL_MS : false),
  });
}

/** Progress of a range reboot started on the page. */
export function useSecurityTask(agentKey: string, taskId: string | null) {
  return useQuery({
    queryKey: securityKeys.task(agentKey, taskId ?? ''),
    queryFn: ({ signal }) => api.get<BatchProgress>('/api/security/task', { agentKey, taskId: taskId ?? '' }, { signal }),
    enabled: taskId !== null,
    refetchInterval: (q) => (progressFinished(q.state.data) ? false : SECURITY_POLL_MS),
  });
}

type Body = Record<string, string | readonly string[] | undefined>;

function useSecurityMutation<V extends Body, R>(path: string, agentKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => api.post<R>(path, { agentKey, ...v }, { as: 'json' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: securityKeys.all }),
  });
}

export function useStartSecurityScan(agentKey: string) {
  return useSecurityMutation<{ ipBegin?: string; ipEnd?: string }, SecurityScanStarted>('/api/security/scan', agentKey);
}

export function useProcessSecurity(agentKey: string) {
  return useSecurityMutation<{ ids: string[]; note?: string }, SecurityProcessResult>('/api/security/process', agentKey);
}

export function useRebootRange(agentKey: string) {
  return useSecurityMutation<{ ipBegin: string; ipEnd: string }, SecurityRebootResult>('/api/security/rebootRange', agentKey);
}

export function useSecuritySettings(agentKey: string) {
  return useQuery({
    queryKey: securityKeys.settings(agentKey),
    queryFn: ({ signal }) => api.get<SecuritySettings>('/api/security/settings', { agentKey }, { signal }),
  });
}

export function useSaveSecuritySettings(agentKey: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (autoScanHours: number) => api.post<SecuritySettings>('/api/security/settings', { agentKey, autoScanHours }, { as: 'json' }),
    onSuccess: (data) => qc.setQueryData(securityKeys.settings(agentKey), data),
  });
}
