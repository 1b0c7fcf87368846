import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { Page } from '@shared/schemas/common';
import type { FarmRow } from '@shared/schemas/farm';
import { farmKeys, type FarmListQuery } from './farm-keys';

export function getFarms(query: FarmListQuery): Promise<Page<FarmRow>> {
  return api.get<Page<FarmRow>>('/api/agent/pagelist', {
    page: query.page,
    pageSize: query.pageSize,
    keyword: query.keyword || undefined,
  });
}

export function useFarms(query: FarmListQuery) {
  return useQuery({
    queryKey: farmKeys.list(query),
    queryFn: () => getFarms(query),
    placeholderData: keepPreviousData,
  });
}
