import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { UserRow } from '@shared/schemas/access';
import { userKeys } from './user-keys';

export interface SaveUserBody {
  id?: string;
  user: string;
  password?: string;
  email?: string;
  mobile?: string;
  areaCode: string;
  roleId: string;
  /** Comma-joined farm keys. */
  agentKeys: string;
  disabled: boolean;
}

export function saveUser(body: SaveUserBody): Promise<UserRow> {
  return api.post<UserRow>('/api/user/save', { ...body });
}

export function deleteUser(id: string): Promise<null> {
  return api.post<null>('/api/user/delete', { id });
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
