/**
 * Calls of the add-farm wizard: the existing endpoints (farms, scan IP ranges, customers, pool groups, approver
 * options, roles, approval setting, sub-areas and sub-IP segments) and the agent package download.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, REQUEST_TIMEOUT_MS, api } from '@client/lib/api-client';
import { sessionKeys } from '@client/lib/session-api';
import { isServerAnswer, reportNetworkFailure, reportServerAnswer } from '@client/lib/offline/connectivity';
import type { Envelope } from '@shared/errors';
import type { ApprovalSetting } from '@shared/schemas/approvals';
import type { Option, Page } from '@shared/schemas/common';
import type { FarmInfo, FarmSecret, NucStatus } from '@shared/schemas/farm';
import type { ScanIpRange } from '@shared/schemas/scan-ip';
import type { SubArea, SubIpSegment } from '@shared/schemas/sub-areas';

export const setupKeys = {
  all: ['farmSetup'] as const,
  farm: (agentKey: string) => [...setupKeys.all, 'farm', agentKey] as const,
  status: (agentKey: string) => [...setupKeys.all, 'status', agentKey] as const,
  miners: (agentKey: string) => [...setupKeys.all, 'miners', agentKey] as const,
  ranges: (agentKey: string) => [...setupKeys.all, 'ranges', agentKey] as const,
  customers: (agentKey: string) => [...setupKeys.all, 'customers', agentKey] as const,
  pools: (agentKey: string) => [...setupKeys.all, 'pools', agentKey] as const,
  approvers: (agentKey: string) => [...setupKeys.all, 'approvers', agentKey] as const,
  roles: ['farmSetup', 'roles'] as const,
  approval: (agentKey: string) => [...setupKeys.all, 'approval', agentKey] as const,
  areas: (agentKey: string) => [...setupKeys.all, 'areas', agentKey] as const,
  segments: (agentKey: string, areaId: number) => [...setupKeys.all, 'segments', agentKey, areaId] as const,
};

/** The farm of the wizard; a 404 / 403 (deleted, or not a member) answers an error the page shows. */
export function useSetupFarm(agentKey: string | null) {
  return useQuery({
    queryKey: setupKeys.farm(agentKey ?? ''),
    queryFn: () => api.get<FarmInfo>('/api/agent/info', { agentKey: agentKey as string }),
    enabled: agentKey !== null,
    retry: false,
  });
}

/** Agent connection, polled while the step shows it. */
export function useAgentStatus(agentKey: string | null, poll: boolean) {
  return useQuery({
    queryKey: setupKeys.status(agentKey ?? ''),
    queryFn: () => api.get<NucStatus>('/api/agent/status', { agentKey: agentKey as string }),
    enabled: agentKey !== null,
    refetchInterval: poll ? 5_000 : false,
  });
}

/** Miners found so far (the total of the miner list). */
export function useMinerTotal(agentKey: string | null, poll: boolean) {
  return useQuery({
    queryKey: setupKeys.miners(agentKey ?? ''),
    queryFn: async () => (await api.get<Page<unknown>>('/api/miner/list', { agentKey: agentKey as string, page: '1', pageSize: '1' })).total,
    enabled: agentKey !== null,
    refetchInterval: poll ? 5_000 : false,
  });
}

export function useScanRanges(agentKey: string | null) {
  return useQuery({
    queryKey: setupKeys.ranges(agentKey ?? ''),
    queryFn: () => api.get<ScanIpRange[]>('/api/scanip/list', { agentKey: agentKey as string }),
    enabled: agentKey !== null,
  });
}

export function useCustomerCount(agentKey: string | null) {
  return useQuery({
    queryKey: setupKeys.customers(agentKey ?? ''),
    queryFn: async () => (await api.get<Page<{ id: string; name: string }>>('/api/customer/list', { agentKey: agentKey as string, page: '1', pageSize: '1000' })).list.map((c) => c.name),
    enabled: agentKey !== null,
    retry: false,
  });
}

export function usePoolGroups(agentKey: string | null) {
  return useQuery({
    queryKey: setupKeys.pools(agentKey ?? ''),
    queryFn: async () => (await api.get<{ id: string; name: string }[]>('/api/poolgroup/list', { agentKey: agentKey as string })).map((g) => g.name),
    enabled: agentKey !== null,
    retry: false,
  });
}

/**
 * Who can be the farm's approver (GET /api/options/auditorList): members or administrators with an e-mail, text
 * "user (masked e-mail)". Users without an e-mail are not offered: the setting would refuse them (approverNoEmail).
 */
export function useApproverOptions(agentKey: string | null) {
  return useQuery({
    queryKey: setupKeys.approvers(agentKey ?? ''),
    queryFn: ({ signal }) => api.get<Option[]>('/api/options/auditorList', { agentKey: agentKey as string }, { signal }),
    enabled: agentKey !== null,
  });
}

export function useRoleOptions() {
  return useQuery({ queryKey: setupKeys.roles, queryFn: () => api.get<Option[]>('/api/options/role') });
}

export function useApprovalSetting(agentKey: string | null) {
  return useQuery({
    queryKey: setupKeys.approval(agentKey ?? ''),
    queryFn: () => api.get<ApprovalSetting>('/api/approval/setting', { agentKey: agentKey as string }),
    enabled: agentKey !== null,
  });
}

export function useSaveApprovalSetting() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { agentKey: string; approverId: string | null; roleIds: string[] }) =>
      api.post<ApprovalSetting>('/api/approval/setting', { agentKey: input.agentKey, approverId: input.approverId ?? '', roleIds: input.roleIds.join(',') }),
    onSuccess: (_r, input) => qc.invalidateQueries({ queryKey: setupKeys.approval(input.agentKey) }),
  });
}

export interface NewFarmInput {
  agentName: string;
  agentKey: string;
  noticeEmails: string;
  agentAddr: string;
}

export function useCreateSetupFarm() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: NewFarmInput) => api.post<FarmSecret>('/api/agent/createv2', { ...input, selfManaged: 'false' }),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: sessionKeys.farms }), qc.invalidateQueries({ queryKey: ['farms'] })]),
  });
}

export function useRotateSetupSecret() {
  return useMutation({ mutationFn: (agentKey: string) => api.post<FarmSecret>('/api/agent/rotateSecret', { agentKey }) });
}

export function useSaveSetupRange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { agentKey: string; ipBegin: string; ipEnd: string; remark: string }) => api.post<ScanIpRange>('/api/scanip/save', { ...input, amount: '0' }),
    onSuccess: (_r, input) => Promise.all([qc.invalidateQueries({ queryKey: setupKeys.ranges(input.agentKey) }), qc.invalidateQueries({ queryKey: ['scanIp'] })]),
  });
}

/** Agent connection polled every 3 s while the restart step waits for the agent's next report. */
export function useRestartWatch(agentKey: string, watching: boolean) {
  return useQuery({
    queryKey: [...setupKeys.status(agentKey), 'restart'],
    queryFn: () => api.get<NucStatus>('/api/agent/status', { agentKey }),
    refetchInterval: watching ? 3_000 : false,
  });
}

export interface DownloadedFile {
  fileName: string;
  blob: Blob;
}

/**
 * GET /api/agent/package as a file; a refusal (an envelope) rejects with its message. Like every other call it tells
 * the page's connectivity (connectivity.ts) whether our server answered: the package or an envelope is an answer; a
 * failed fetch, a timeout or another body (a proxy's error page) is not.
 */
export async function fetchAgentPackage(agentKey: string, locale: string): Promise<DownloadedFile> {
  const startedAt = Date.now();
  let res: Response;
  try {
    res = await fetch(`/api/agent/package?${new URLSearchParams({ agentKey }).toString()}`, {
      credentials: 'include',
      headers: { I18N: locale, agentKey },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS * 4),
    });
  } catch (err) {
    reportNetworkFailure(startedAt);
    throw err;
  }
  if (!res.ok || !/gzip/.test(res.headers.get('content-type') ?? '')) {
    const env = (await res.json().catch(() => null)) as Envelope<unknown> | null;
    if (isServerAnswer(res, env)) reportServerAnswer();
    else reportNetworkFailure(startedAt);
    // Session ended: the same as every other call (spec 1 §8, code "401" sends the browser to data).
    if (env && String(env.code) === '401') window.location.assign(typeof env.data === 'string' ? env.data : '/login');
    throw new ApiError(env?.msg ?? res.statusText, env?.code ?? res.status, res.status, env?.data ?? null);
  }
  reportServerAnswer();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `hashfield-agent-${agentKey}.tar.gz`;
  return { fileName: name, blob: await res.blob() };
}

export function useDownloadAgentPackage() {
  return useMutation({ mutationFn: (input: { agentKey: string; locale: string }) => fetchAgentPackage(input.agentKey, input.locale) });
}

/** Sub-mining areas of the farm (installer variant); a 403 answers an error the step shows. */
export function useSetupAreas(agentKey: string) {
  return useQuery({
    queryKey: setupKeys.areas(agentKey),
    queryFn: () => api.get<SubArea[]>('/api/minerv2/agentSubArea/list', { agentKey }),
    retry: false,
  });
}

export function useCreateSetupArea() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { agentKey: string; name: string; parentId: number | null }) =>
      api.post<SubArea>('/api/minerv2/agentSubArea/save', { agentKey: input.agentKey, name: input.name, ...(input.parentId ? { parentId: String(input.parentId) } : {}) }),
    onSuccess: (_r, input) => Promise.all([qc.invalidateQueries({ queryKey: setupKeys.areas(input.agentKey) }), qc.invalidateQueries({ queryKey: ['subAreas'] })]),
  });
}

/** The IP segments of one area (first 100, by address). */
export function useSetupSegments(agentKey: string, areaId: number | null) {
  return useQuery({
    queryKey: setupKeys.segments(agentKey, areaId ?? 0),
    queryFn: () => api.get<Page<SubIpSegment>>('/api/minerv2/agentSubIp/list', { agentKey, areaId: String(areaId), page: '1', pageSize: '100' }),
    enabled: areaId !== null,
    retry: false,
  });
}

export function useSaveSetupSegments() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { agentKey: string; areaId: number; segments: string; remark: string }) =>
      api.post<{ saved: number }>('/api/minerv2/agentSubIp/save', { agentKey: input.agentKey, areaId: String(input.areaId), segments: input.segments, remark: input.remark }),
    onSuccess: (_r, input) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: setupKeys.segments(input.agentKey, input.areaId) }),
        qc.invalidateQueries({ queryKey: setupKeys.areas(input.agentKey) }),
        qc.invalidateQueries({ queryKey: ['subAreas'] }),
      ]),
  });
}
