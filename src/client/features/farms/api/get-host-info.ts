import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { Page } from '@shared/schemas/common';
import type { HostInfo } from '@shared/schemas/farm';
import { farmKeys, type HostListQuery } from './farm-keys';

export function getHostInfoList(query: HostListQuery): Promise<Page<HostInfo>> {
  return api.get<Page<HostInfo>>('/api/agent/hostInfo', { page: query.page, pageSize: query.pageSize });
}

export function getHostInfoDetail(agentKey: string): Promise<HostInfo> {
  return api.get<HostInfo>('/api/agent/hostInfo/detail', { agentKey });
}

export function useHostInfoList(query: HostListQuery) {
  return useQuery({
    queryKey: farmKeys.hostList(query),
    queryFn: () => getHostInfoList(query),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export function useHostInfoDetail(agentKey: string) {
  return useQuery({
    queryKey: farmKeys.hostDetail(agentKey),
    queryFn: () => getHostInfoDetail(agentKey),
    enabled: agentKey !== '',
    refetchInterval: 60_000,
  });
}
