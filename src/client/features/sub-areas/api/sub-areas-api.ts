/** Sub-area and sub-IP calls of the current farm; every write reloads the tree, the segments and the area options. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { Option, Page } from '@shared/schemas/common';
import type { SubArea, SubIpSegment } from '@shared/schemas/sub-areas';

export const subAreaKeys = {
  all: ['subAreas'] as const,
  tree: (agentKey: string) => [...subAreaKeys.all, 'tree', agentKey] as const,
  options: (agentKey: string) => [...subAreaKeys.all, 'options', agentKey] as const,
  segments: (agentKey: string, areaId: number | null, page: number, pageSize: number) => [...subAreaKeys.all, 'segments', agentKey, areaId, page, pageSize] as const,
};

export function useSubAreas(agentKey: string | null) {
  return useQuery({
    queryKey: subAreaKeys.tree(agentKey ?? ''),
    queryFn: () => api.get<SubArea[]>('/api/minerv2/agentSubArea/list', { agentKey: agentKey as string }),
    enabled: agentKey !== null,
  });
}

export function useAreaOptions(agentKey: string | null) {
  return useQuery({
    queryKey: subAreaKeys.options(agentKey ?? ''),
    queryFn: () => api.get<Option[]>('/api/options/area', { agentKey: agentKey as string }),
    enabled: agentKey !== null,
  });
}

export function useSubIps(agentKey: string | null, areaId: number | null, page: number, pageSize: number) {
  return useQuery({
    queryKey: subAreaKeys.segments(agentKey ?? '', areaId, page, pageSize),
    queryFn: () =>
      api.get<Page<SubIpSegment>>('/api/minerv2/agentSubIp/list', {
        agentKey: agentKey as string,
        page: String(page),
        pageSize: String(pageSize),
        ...(areaId ? { areaId: String(areaId) } : {}),
      }),
    enabled: agentKey !== null,
    placeholderData: keepPreviousData,
  });
}

function useReload() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: subAreaKeys.all });
}

export interface SaveSubAreaInput {
  agentKey: string;
  id?: number;
  parentId?: number | null;
  name: string;
}

export function useSaveSubArea() {
  const reload = useReload();
  return useMutation({
    mutationFn: (input: SaveSubAreaInput) =>
      api.post<SubArea>('/api/minerv2/agentSubArea/save', {
        agentKey: input.agentKey,
        name: input.name,
        ...(input.id ? { id: String(input.id) } : {}),
        ...(input.parentId ? { parentId: String(input.parentId) } : {}),
      }),
    onSuccess: reload,
  });
}

export function useMoveSubArea() {
  const reload = useReload();
  return useMutation({
    mutationFn: (input: { agentKey: string; id: number; parentId: number | null }) =>
      api.post<null>('/api/minerv2/agentSubArea/move', { agentKey: input.agentKey, id: String(input.id), parentId: input.parentId ? String(input.parentId) : '' }),
    onSuccess: reload,
  });
}

export function useDeleteSubArea() {
  const reload = useReload();
  return useMutation({
    mutationFn: (input: { agentKey: string; id: number }) => api.post<{ segments: number }>('/api/minerv2/agentSubArea/delete', { agentKey: input.agentKey, id: String(input.id) }),
    onSuccess: reload,
  });
}

export interface SaveSubIpInput {
  agentKey: string;
  id?: string;
  areaId: number;
  segments: string;
  remark: string;
}

export function useSaveSubIp() {
  const reload = useReload();
  return useMutation({
    mutationFn: (input: SaveSubIpInput) =>
      api.post<{ saved: number }>('/api/minerv2/agentSubIp/save', {
        agentKey: input.agentKey,
        areaId: String(input.areaId),
        segments: input.segments,
        remark: input.remark,
        ...(input.id ? { id: input.id } : {}),
      }),
    onSuccess: reload,
  });
}

export function useDeleteSubIps() {
  const reload = useReload();
  return useMutation({
    mutationFn: (input: { agentKey: string; ids: readonly string[] }) => api.post<{ deleted: number }>('/api/minerv2/agentSubIp/delete', { agentKey: input.agentKey, ids: input.ids.join(',') }),
    onSuccess: reload,
  });
}
