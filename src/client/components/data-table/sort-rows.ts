/**
 * Client-side sorting for DataTable lists that are loaded whole (farms, users, roles).
 */
import type { Column, SortState } from './data-table-types';

type SortValue = string | number | boolean | Date | null | undefined;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function normalise(value: unknown): string | number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  return null;
}

/** Compares two cell values: numbers numerically, text naturally ('a2' < 'a10'); empty values last. */
export function compareValues(a: SortValue | unknown, b: SortValue | unknown): number {
  const x = normalise(a);
  const y = normalise(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return collator.compare(String(x), String(y));
}

/**
 * Returns a sorted copy of `rows` for `sort` (stable; empty values stay last in both directions).
 * Uses the column's `sortValue`, else the row's field named by the column key. No sort → same order.
 */
export function sortRows<Row>(rows: readonly Row[], columns: readonly Column<Row>[], sort: SortState | null | undefined): Row[] {
  if (!sort) return [...rows];
  const column = columns.find((c) => c.key === sort.key);
  const valueOf = column?.sortValue ?? ((row: Row) => (row as Record<string, unknown>)[sort.key] as SortValue);
  const factor = sort.direction === 'desc' ? -1 : 1;
  const decorated = rows.map((row, index) => ({ row, index, value: normalise(valueOf(row)) }));
  decorated.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value === b.value) return a.index - b.index;
      return a.value === null ? 1 : -1;
    }
    return compareValues(a.value, b.value) * factor || a.index - b.index;
  });
  return decorated.map((item) => item.row);
}
