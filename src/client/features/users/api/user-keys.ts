export interface UserListQuery {
  page: number;
  pageSize: number;
  keyword: string;
}

export const userKeys = {
  all: ['users'] as const,
  list: (query: UserListQuery) => [...userKeys.all, 'list', query] as const,
  roleOptions: () => [...userKeys.all, 'role-options'] as const,
};
