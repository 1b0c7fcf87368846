import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { UserRow } from '@shared/schemas/access';
import type { Page } from '@shared/schemas/common';
import { userKeys, type UserListQuery } from './user-keys';

export function getUsers(query: UserListQuery): Promise<Page<UserRow>> {
  return api.get<Page<UserRow>>('/api/user/list', {
    page: query.page,
    pageSize: query.pageSize,
    keyword: query.keyword || undefined,
  });
}

export function useUsers(query: UserListQuery) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: () => getUsers(query),
    placeholderData: keepPreviousData,
  });
}
