import { useQuery } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import { useFarmOptions } from '@client/lib/session-api';
import type { Option } from '@shared/schemas/common';
import { userKeys } from './user-keys';

export function getRoleOptions(): Promise<Option[]> {
  return api.get<Option[]>('/api/options/role');
}

export function useRoleOptions(enabled = true) {
  // Roles change on another page: always refetch when the dialog opens.
  return useQuery({ queryKey: userKeys.roleOptions(), queryFn: getRoleOptions, enabled, staleTime: 0 });
}

/** Farms a user may be given: GET /api/options/agent, shared with the header's farm selector. */
export function useAgentOptions(enabled = true) {
  return useFarmOptions(enabled);
}
