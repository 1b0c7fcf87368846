import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import { sessionKeys } from '@client/lib/session-api';
import type { RoleRow } from '@shared/schemas/access';

export const roleKeys = {
  all: ['roles'] as const,
  list: () => [...roleKeys.all, 'list'] as const,
};

export interface SaveRoleBody {
  id?: string;
  name: string;
  remark: string;
  /** Comma-joined permission keys: "10000,10500". */
  permissions: string;
}

export function getRoles(): Promise<RoleRow[]> {
  return api.get<RoleRow[]>('/api/role/list');
}

export function saveRole(body: SaveRoleBody): Promise<RoleRow> {
  return api.post<RoleRow>('/api/role/save', { ...body });
}

export function deleteRole(id: string): Promise<null> {
  return api.post<null>('/api/role/delete', { id });
}

export function useRoles() {
  return useQuery({ queryKey: roleKeys.list(), queryFn: getRoles });
}

/** A role change may change the current user's own menus. */
function refresh(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: roleKeys.all }),
    queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  ]);
}

export function useSaveRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveRole, onSuccess: () => refresh(queryClient) });
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteRole, onSuccess: () => refresh(queryClient) });
}
