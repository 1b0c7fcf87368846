/**
 * Which miners the operator picked, ready for the batch operations of the next issue: either explicit
 * miners (IPs, with their rows so an export needs no refetch), or "every miner matching this filter"
 * minus the ones unticked afterwards — 20,000 miners are selected without loading them.
 */
import type { MinerFilter, MinerRow } from '@shared/schemas/miner';

export type MinerSelection =
  | { kind: 'ips'; ips: readonly string[]; rows: Readonly<Record<string, MinerRow>> }
  | { kind: 'matching'; filter: MinerFilter; total: number; excluded: readonly string[] };

export const EMPTY_SELECTION: MinerSelection = { kind: 'ips', ips: [], rows: {} };

export function selectionCount(s: MinerSelection): number {
  return s.kind === 'ips' ? s.ips.length : Math.max(0, s.total - s.excluded.length);
}

/** The ticked keys among the rows on screen (DataTable's selectedKeys). */
export function visibleSelectedKeys(s: MinerSelection, pageRows: readonly MinerRow[]): string[] {
  if (s.kind === 'ips') return [...s.ips];
  const excluded = new Set(s.excluded);
  return pageRows.filter((r) => !excluded.has(r.ip)).map((r) => r.ip);
}

/** Applies the keys DataTable reports after a click (keys of other pages stay as they were). */
export function applyTableKeys(s: MinerSelection, keys: readonly string[], pageRows: readonly MinerRow[]): MinerSelection {
  const ticked = new Set(keys);
  if (s.kind === 'ips') {
    const rows: Record<string, MinerRow> = {};
    for (const ip of keys) {
      const row = s.rows[ip] ?? pageRows.find((r) => r.ip === ip);
      if (row) rows[ip] = row;
    }
    return { kind: 'ips', ips: [...keys], rows };
  }
  const excluded = new Set(s.excluded);
  for (const r of pageRows) {
    if (ticked.has(r.ip)) excluded.delete(r.ip);
    else excluded.add(r.ip);
  }
  if (excluded.size >= s.total) return EMPTY_SELECTION;
  return { ...s, excluded: [...excluded] };
}

/** "Select all N matching the filter". */
export function selectAllMatching(filter: MinerFilter, total: number): MinerSelection {
  return total > 0 ? { kind: 'matching', filter, total, excluded: [] } : EMPTY_SELECTION;
}

/** True when the selection is the whole filter result. */
export function isAllMatching(s: MinerSelection): boolean {
  return s.kind === 'matching' && s.excluded.length === 0;
}

/** The selected rows among rows known in full (an "all matching" export passes every matching row). */
export function selectedRows(s: MinerSelection, matching: readonly MinerRow[] = []): MinerRow[] {
  if (s.kind === 'ips') return s.ips.flatMap((ip) => (s.rows[ip] ? [s.rows[ip]] : []));
  const excluded = new Set(s.excluded);
  return matching.filter((r) => !excluded.has(r.ip));
}
