/** Query keys of the farms feature (one factory so invalidation stays consistent). */
export interface FarmListQuery {
  page: number;
  pageSize: number;
  keyword: string;
}

export interface HostListQuery {
  page: number;
  pageSize: number;
}

export const farmKeys = {
  all: ['farms'] as const,
  lists: () => [...farmKeys.all, 'list'] as const,
  list: (query: FarmListQuery) => [...farmKeys.lists(), query] as const,
  info: (agentKey: string) => [...farmKeys.all, 'info', agentKey] as const,
  status: (agentKey: string) => [...farmKeys.all, 'status', agentKey] as const,
  region: (agentKey: string) => [...farmKeys.all, 'region', agentKey] as const,
  hosts: () => [...farmKeys.all, 'hosts'] as const,
  hostList: (query: HostListQuery) => [...farmKeys.hosts(), 'list', query] as const,
  hostDetail: (agentKey: string) => [...farmKeys.hosts(), 'detail', agentKey] as const,
};
