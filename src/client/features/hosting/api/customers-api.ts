/** Customer calls (spec 2 §7): the farm's customers (page 1, size 1000 like every dropdown), save, delete, option lists. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { Option, Page } from '@shared/schemas/common';
import type { Customer } from '@shared/schemas/customer';

export const CUSTOMER_LIST_SIZE = 1000;

export const customerKeys = {
  all: ['customers'] as const,
  list: (agentKey: string) => [...customerKeys.all, 'list', agentKey] as const,
};

/** `fresh`: refetch on mount even when the (persisted) cache is recent, for dropdowns of a dialog just opened. */
export function useCustomerList(agentKey: string | null, fresh = false) {
  return useQuery({
    ...(fresh ? { staleTime: 0 } : {}),
    queryKey: customerKeys.list(agentKey ?? ''),
    queryFn: ({ signal }) => api.get<Page<Customer>>('/api/customer/list', { agentKey: agentKey as string, page: 1, pageSize: CUSTOMER_LIST_SIZE }, { signal }),
    enabled: agentKey !== null,
  });
}

/** A fixed vocabulary from GET /api/options/<name> (coinType, currency, areaCode, minerModel). */
export function useFixedOptions(name: 'coinType' | 'currency' | 'areaCode' | 'minerModel') {
  return useQuery({
    queryKey: ['options', name],
    queryFn: ({ signal }) => api.get<Option[]>(`/api/options/${name}`, undefined, { signal }),
    staleTime: 60 * 60 * 1000,
  });
}

export function useSaveCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: Record<string, string>) => api.post<Customer>('/api/customer/save', input),
    onSuccess: (_c, input) => qc.invalidateQueries({ queryKey: customerKeys.list(input.agentKey ?? '') }),
  });
}

export function useDeleteCustomer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { agentKey: string; id: string }) => api.post<null>('/api/customer/delete', input),
    onSuccess: (_r, input) => qc.invalidateQueries({ queryKey: customerKeys.list(input.agentKey) }),
  });
}
