import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';

/** One row of GET /api/userv2/sessions. */
export interface UserSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

export const sessionListKeys = {
  all: ['account', 'sessions'] as const,
};

export function getSessions(): Promise<UserSession[]> {
  return api.get<UserSession[]>('/api/userv2/sessions');
}

export function revokeSession(id: string): Promise<null> {
  return api.post<null>('/api/userv2/sessions/revoke', { id });
}

export function useSessions() {
  return useQuery({ queryKey: sessionListKeys.all, queryFn: getSessions, staleTime: 0 });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionListKeys.all }),
  });
}
