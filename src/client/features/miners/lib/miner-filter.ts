/**
 * The list's filter, sort and paging live in the address (?status=offline&page=2…), so a reload, the back
 * button and a shared link keep them; a detail page links back to the same list.
 */
import { MINER_FAULT_LABELS, MINER_FILTER_STATUSES, MINER_NETWORKS, MINER_WORK_MODES } from '@shared/miner-labels';
import { MINER_SORT_KEYS, type MinerFilter, type MinerSortKey } from '@shared/schemas/miner';
import type { FaultLabel, WorkMode } from '@shared/schemas/miner-snapshot';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@client/components/data-table/data-table-types';

/**
 * A change of the list's filter, as a function of the filter it applies to: the page applies it to the filter in the
 * address now, which may be ahead of the one the component last rendered (see miner-list-page.tsx).
 */
export type MinerFilterUpdate = (filter: MinerFilter) => MinerFilter;

export interface MinerListState {
  filter: MinerFilter;
  page: number;
  pageSize: number;
  sort?: MinerSortKey;
  order?: 'asc' | 'desc';
}

const TEXT_KEYS = ['model', 'firmware', 'pool', 'keyword', 'customer', 'subArea', 'accident', 'errorCode'] as const;

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | undefined => (v !== null && (values as readonly string[]).includes(v) ? (v as T) : undefined);

export function readListState(params: URLSearchParams): MinerListState {
  const filter: MinerFilter = {};
  const status = oneOf(MINER_FILTER_STATUSES, params.get('status'));
  if (status) filter.status = status;
  const faultType = oneOf<FaultLabel>(MINER_FAULT_LABELS, params.get('faultType'));
  if (faultType) filter.faultType = faultType;
  const workMode = oneOf<WorkMode>(MINER_WORK_MODES, params.get('workMode'));
  if (workMode) filter.workMode = workMode;
  const network = oneOf(MINER_NETWORKS, params.get('network'));
  if (network) filter.network = network;
  for (const k of TEXT_KEYS) {
    const v = params.get(k)?.trim();
    // An error code is a number (the server refuses anything else): a mangled link drops it rather than failing the list.
    if (v && (k !== 'errorCode' || /^-?\d{1,9}$/.test(v))) filter[k] = v;
  }
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const size = Number(params.get('pageSize'));
  const pageSize = PAGE_SIZE_OPTIONS.includes(size) ? size : DEFAULT_PAGE_SIZE;
  const sort = oneOf(MINER_SORT_KEYS, params.get('sort'));
  const order = oneOf(['asc', 'desc'] as const, params.get('order'));
  return { filter, page, pageSize, ...(sort ? { sort, order: order ?? 'asc' } : {}) };
}

export function writeListState(s: MinerListState): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(s.filter)) if (typeof v === 'string' && v !== '') p.set(k, v);
  if (s.page > 1) p.set('page', String(s.page));
  if (s.pageSize !== DEFAULT_PAGE_SIZE) p.set('pageSize', String(s.pageSize));
  if (s.sort) {
    p.set('sort', s.sort);
    p.set('order', s.order ?? 'asc');
  }
  return p;
}

/** Number of filters set (the phone's collapsed filter button shows it). */
export function activeFilterCount(f: MinerFilter): number {
  return Object.values(f).filter((v) => typeof v === 'string' && v !== '').length;
}

/** The same filter without the state dimensions the counter strip shows (so its counters stay clickable). */
export function counterFilter(f: MinerFilter): MinerFilter {
  const { status: _status, faultType: _fault, ...rest } = f;
  return rest;
}

/**
 * The page to show instead when the list's answer says the page asked for is past the last one (an old link, a
 * hand-typed ?page=99, miners removed since): the last page, or 1 when nothing matches. Null when the page is fine.
 */
export function pageBeyondLast(page: number, pageSize: number, total: number): number | null {
  const last = Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
  return page > last ? last : null;
}
