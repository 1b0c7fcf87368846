/** Miner monitoring calls (spec 3 §7 miner queries and dropdowns) and their TanStack Query hooks. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '@client/lib/api-client';
import type { Option, Page } from '@shared/schemas/common';
import type {
  FarmSeriesPoint,
  FarmSeriesRange,
  MinerDetail,
  MinerFilter,
  MinerHistoryPoint,
  MinerHistoryRange,
  MinerIndexStat,
  MinerModelStat,
  MinerOptionName,
  MinerRow,
  MinerSortKey,
  MinerStat,
} from '@shared/schemas/miner';
import { DEFAULT_LOCALE, normaliseLocale } from '@shared/validation';

/** The list refreshes itself every 60 s (spec 1 §9 polling default). */
export const MINER_REFRESH_MS = 60_000;

export interface MinerListParams {
  filter: MinerFilter;
  page: number;
  pageSize: number;
  sort?: MinerSortKey;
  order?: 'asc' | 'desc';
}

export const minerKeys = {
  all: ['miners'] as const,
  list: (agentKey: string, p: MinerListParams) => [...minerKeys.all, 'list', agentKey, p] as const,
  stat: (agentKey: string, filter: MinerFilter) => [...minerKeys.all, 'stat', agentKey, filter] as const,
  /** The options' texts are in the interface language: one cache entry per language. */
  option: (agentKey: string, name: DropdownName, locale: string) => [...minerKeys.all, 'option', agentKey, name, locale] as const,
  detail: (agentKey: string, ip: string) => [...minerKeys.all, 'detail', agentKey, ip] as const,
  history: (agentKey: string, ip: string, range: MinerHistoryRange) => [...minerKeys.all, 'history', agentKey, ip, range] as const,
  modelStats: (agentKey: string) => [...minerKeys.all, 'modelstat', agentKey] as const,
  farmSeries: (agentKey: string, range: FarmSeriesRange) => [...minerKeys.all, 'farmSeries', agentKey, range] as const,
};

function filterParams(filter: MinerFilter): Record<string, string | undefined> {
  const { tempChipFrom, ...texts } = filter;
  return { ...texts, tempChipFrom: tempChipFrom === undefined ? undefined : String(tempChipFrom) };
}

export function getMinerPage(agentKey: string, p: MinerListParams, signal?: AbortSignal): Promise<Page<MinerRow>> {
  return api.get<Page<MinerRow>>(
    '/api/miner/list',
    { agentKey, ...filterParams(p.filter), page: p.page, pageSize: p.pageSize, sort: p.sort, order: p.sort ? p.order : undefined },
    { signal },
  );
}

/** Every miner matching a filter, in list order (pages of 1000), for "all matching" exports and batches. */
export async function getAllMatchingMiners(agentKey: string, p: Omit<MinerListParams, 'page' | 'pageSize'>, signal?: AbortSignal): Promise<MinerRow[]> {
  const rows: MinerRow[] = [];
  for (let page = 1; ; page += 1) {
    const res = await getMinerPage(agentKey, { ...p, page, pageSize: 1000 }, signal);
    rows.push(...res.list);
    if (res.list.length === 0 || rows.length >= res.total) return rows;
  }
}

export function useMinerList(agentKey: string | null, p: MinerListParams) {
  return useQuery({
    queryKey: minerKeys.list(agentKey ?? '', p),
    queryFn: ({ signal }) => getMinerPage(agentKey as string, p, signal),
    enabled: agentKey !== null,
    placeholderData: keepPreviousData,
    refetchInterval: MINER_REFRESH_MS,
  });
}

export function useMinerStat(agentKey: string | null, filter: MinerFilter) {
  return useQuery({
    queryKey: minerKeys.stat(agentKey ?? '', filter),
    queryFn: ({ signal }) => api.get<MinerStat>('/api/miner/stat', { agentKey: agentKey as string, ...filterParams(filter) }, { signal }),
    enabled: agentKey !== null,
    placeholderData: keepPreviousData,
    refetchInterval: MINER_REFRESH_MS,
  });
}

/** The miner dropdowns, `customer` and `area` (served by their own routes), and the accident types (batchAccident). */
export type DropdownName = MinerOptionName | 'customer' | 'area' | 'accidentList';

/**
 * A dropdown of the list's filters or of a batch op: the miner options, plus `customer` and `area` (served by their own routes).
 * The server names the options in the request's language (header I18N), so the language is part of the key: after a
 * change of language the dropdown asks again instead of keeping the previous language's texts. `fresh`: ask again on
 * mount even when the cached list is recent (the filter bar keeps it 5 minutes).
 */
export function useMinerOptions(agentKey: string | null, name: DropdownName, fresh = false) {
  // The language the API client sends (currentLocale()), read through i18next so that a change re-renders.
  const { i18n } = useTranslation();
  const locale = normaliseLocale(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LOCALE;
  return useQuery({
    queryKey: minerKeys.option(agentKey ?? '', name, locale),
    queryFn: ({ signal }) => api.get<Option[]>(`/api/options/${name}`, { agentKey: agentKey as string }, { signal }),
    enabled: agentKey !== null,
    // A dialog just opened asks again (a customer added meanwhile, on another page or by someone else, is offered).
    staleTime: fresh ? 0 : 5 * 60_000,
  });
}

export function useMinerDetail(agentKey: string | null, ip: string) {
  return useQuery({
    queryKey: minerKeys.detail(agentKey ?? '', ip),
    queryFn: ({ signal }) => api.get<MinerDetail>('/api/miner/detail', { agentKey: agentKey as string, ip }, { signal }),
    enabled: agentKey !== null && ip !== '',
    refetchInterval: MINER_REFRESH_MS,
  });
}

export function useMinerHistory(agentKey: string | null, ip: string, range: MinerHistoryRange) {
  return useQuery({
    queryKey: minerKeys.history(agentKey ?? '', ip, range),
    queryFn: ({ signal }) => api.get<MinerHistoryPoint[]>('/api/miner/history', { agentKey: agentKey as string, ip, range }, { signal }),
    enabled: agentKey !== null && ip !== '',
    placeholderData: keepPreviousData,
    refetchInterval: MINER_REFRESH_MS,
  });
}

export function useModelStats(agentKey: string | null) {
  return useQuery({
    queryKey: minerKeys.modelStats(agentKey ?? ''),
    queryFn: ({ signal }) => api.get<MinerModelStat[]>('/api/miner/modelstat', { agentKey: agentKey as string }, { signal }),
    enabled: agentKey !== null,
    refetchInterval: MINER_REFRESH_MS,
  });
}

export function useIndexStat(agentKey: string | null) {
  return useQuery({
    queryKey: [...minerKeys.all, 'indexStat', agentKey ?? ''] as const,
    queryFn: ({ signal }) => api.get<MinerIndexStat>('/api/miner/indexStat', { agentKey: agentKey as string }, { signal }),
    enabled: agentKey !== null,
    refetchInterval: MINER_REFRESH_MS,
  });
}

export function useFarmSeries(agentKey: string | null, range: FarmSeriesRange) {
  return useQuery({
    queryKey: minerKeys.farmSeries(agentKey ?? '', range),
    queryFn: ({ signal }) => api.get<FarmSeriesPoint[]>('/api/miner/farmSeries', { agentKey: agentKey as string, range }, { signal }),
    enabled: agentKey !== null,
    placeholderData: keepPreviousData,
    refetchInterval: MINER_REFRESH_MS,
  });
}
