/** Pool-settings calls (spec 2 §7): sub-accounts and the observer test, pool groups and hosting info, the whitelist. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { Option, Page } from '@shared/schemas/common';
import type { HostingInfoRow, ObserverTestResult, PoolGroup, PoolWhitelistEntry, SubAccount } from '@shared/schemas/pool';

export const poolKeys = {
  all: ['pools'] as const,
  subAccounts: (agentKey: string) => [...poolKeys.all, 'subAccounts', agentKey] as const,
  groups: (agentKey: string) => [...poolKeys.all, 'groups', agentKey] as const,
  whitelist: (agentKey: string) => [...poolKeys.all, 'whitelist', agentKey] as const,
  hosting: (agentKey: string, customerId: string, groupId: string) => [...poolKeys.all, 'hosting', agentKey, customerId, groupId] as const,
  poolNames: (agentKey: string) => [...poolKeys.all, 'poolNames', agentKey] as const,
};

/** `fresh`: refetch on mount even when the (persisted) cache is recent, for dropdowns of a dialog just opened. */
export function useSubAccounts(agentKey: string | null, fresh = false) {
  return useQuery({
    ...(fresh ? { staleTime: 0 } : {}),
    queryKey: poolKeys.subAccounts(agentKey ?? ''),
    queryFn: ({ signal }) => api.get<Page<SubAccount>>('/api/subAccountV2/pagelist', { agentKey: agentKey as string, page: 1, pageSize: 1000 }, { signal }),
    enabled: agentKey !== null,
  });
}

export function usePoolGroups(agentKey: string | null) {
  return useQuery({
    queryKey: poolKeys.groups(agentKey ?? ''),
    queryFn: ({ signal }) => api.get<PoolGroup[]>('/api/poolgroup/list', { agentKey: agentKey as string }, { signal }),
    enabled: agentKey !== null,
  });
}

export function useWhitelist(agentKey: string | null) {
  return useQuery({
    queryKey: poolKeys.whitelist(agentKey ?? ''),
    queryFn: ({ signal }) => api.get<PoolWhitelistEntry[]>('/api/poolWhitelist/list', { agentKey: agentKey as string }, { signal }),
    enabled: agentKey !== null,
  });
}

export function usePoolNames(agentKey: string) {
  return useQuery({
    queryKey: poolKeys.poolNames(agentKey),
    queryFn: ({ signal }) => api.get<Option[]>('/api/options/poolName', { agentKey }, { signal }),
  });
}

export function useObserverRules() {
  return useQuery({
    queryKey: [...poolKeys.all, 'observerRules'],
    queryFn: ({ signal }) => api.get<{ exemptPools: string[]; testValidSeconds: number }>('/api/subAccountV2/hosting', undefined, { signal }),
    staleTime: 60 * 60 * 1000,
  });
}

/** Hosting rows of a customer with the miners still free (the group being edited not counted). */
export function useHostingInfo(agentKey: string, customerId: string, groupId: string) {
  return useQuery({
    queryKey: poolKeys.hosting(agentKey, customerId, groupId),
    queryFn: ({ signal }) => api.get<HostingInfoRow[]>('/api/poolgroup/hostingInfo', { agentKey, customerId, ...(groupId ? { poolGroupId: groupId } : {}) }, { signal }),
    enabled: customerId !== '',
  });
}

export function testObserverUrl(agentKey: string, observerUrl: string, coinType: string): Promise<ObserverTestResult> {
  return api.get<ObserverTestResult>('/api/subAccountV2/testObserverUrl', { agentKey, observerUrl, coinType });
}

function useWrite<T>(path: string, key: (agentKey: string) => readonly unknown[]) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: Record<string, string>) => api.post<T>(path, input),
    onSuccess: (_r, input) => qc.invalidateQueries({ queryKey: key(input.agentKey ?? '') }),
  });
}

export const useSaveSubAccount = () => useWrite<SubAccount>('/api/subAccountV2/save', poolKeys.subAccounts);
export const useDeleteSubAccount = () => useWrite<null>('/api/subAccountV2/delete', poolKeys.subAccounts);
/** A pool-group write changes the groups and what customers have free: everything under `pools` reloads. */
export const useSavePoolGroup = () => useWrite<PoolGroup>('/api/poolgroup/save', () => poolKeys.all);
export const useDeletePoolGroup = () => useWrite<null>('/api/poolgroup/delete', () => poolKeys.all);
export const useSaveWhitelist = () => useWrite<PoolWhitelistEntry>('/api/poolWhitelist/save', poolKeys.whitelist);
export const useDeleteWhitelist = () => useWrite<null>('/api/poolWhitelist/delete', poolKeys.whitelist);
