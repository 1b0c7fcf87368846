import { describe, expect, it } from 'vitest';
import type { Column } from './data-table-types';
import { compareValues, sortRows } from './sort-rows';
import {
  defaultColumnWidth,
  groupFixed,
  minColumnWidth,
  resolveHidden,
  resolveOrder,
  sanitizePreferences,
  tablePreferenceName,
} from './table-preferences';
import { computeRowWindow } from './use-row-window';

interface Row {
  name: string | null;
  count: number;
}

const col = (key: string, extra: Partial<Column<Row>> = {}): Column<Row> => ({ key, title: key, ...extra });

describe('table preferences logic', () => {
  it('names the preference after the prefKey', () => {
    expect(tablePreferenceName('/setting/user:list')).toBe('table:/setting/user:list');
  });

  it('resolves the stored order, dropping unknown keys and slotting in new ones', () => {
    expect(resolveOrder(['a', 'b', 'c'], undefined)).toEqual(['a', 'b', 'c']);
    expect(resolveOrder(['a', 'b', 'c'], ['c', 'a', 'b'])).toEqual(['c', 'a', 'b']);
    expect(resolveOrder(['a', 'b', 'c'], ['c', 'gone', 'a', 'a'])).toEqual(['c', 'a', 'b']);
    expect(resolveOrder(['new', 'a', 'b'], ['b', 'a'])).toEqual(['new', 'b', 'a']);
    expect(resolveOrder(['a', 'b', 'x', 'y'], ['b', 'a'])).toEqual(['b', 'x', 'y', 'a']);
  });

  it('resolves hidden columns and never hides everything', () => {
    const columns = [col('a'), col('b'), col('c', { defaultHidden: true })];
    expect([...resolveHidden(columns, {})]).toEqual(['c']);
    expect([...resolveHidden(columns, { order: ['a', 'b', 'c'], hidden: ['a'] })]).toEqual(['a']);
    expect([...resolveHidden(columns, { order: ['a', 'b', 'c'], hidden: ['a', 'b', 'c'] })]).toEqual([]);
  });

  it('sanitises malformed stored values', () => {
    expect(sanitizePreferences(null)).toEqual({});
    expect(sanitizePreferences([1, 2])).toEqual({});
    expect(sanitizePreferences({ order: [1], hidden: 'x', widths: { a: 100, b: 'wide', c: -5, d: Number.NaN } })).toEqual({
      widths: { a: 100 },
    });
  });

  it('computes default and minimum widths', () => {
    expect(defaultColumnWidth(col('a'))).toBe(150);
    expect(defaultColumnWidth(col('a', { width: 40 }))).toBe(60);
    expect(defaultColumnWidth(col('a', { width: 100, minWidth: 120 }))).toBe(120);
    expect(minColumnWidth(col('a', { minWidth: 10 }))).toBe(60);
  });

  it('groups fixed columns at the edges', () => {
    const columns = [col('a'), col('r', { fixed: 'right' }), col('b'), col('l', { fixed: 'left' })];
    expect(groupFixed(columns).map((c) => c.key)).toEqual(['l', 'a', 'b', 'r']);
  });
});

describe('computeRowWindow', () => {
  it('covers the viewport plus overscan', () => {
    expect(computeRowWindow(20_000, 40, 0, 560, 8)).toEqual({ start: 0, end: 22, padTop: 0, padBottom: (20_000 - 22) * 40 });
    const mid = computeRowWindow(20_000, 40, 40_000, 560, 8);
    expect(mid.start).toBe(992);
    expect(mid.end).toBe(1022);
    expect(mid.padTop + (mid.end - mid.start) * 40 + mid.padBottom).toBe(20_000 * 40);
  });

  it('clamps at the end and for tiny counts', () => {
    const end = computeRowWindow(100, 40, 1_000_000, 560, 8);
    expect(end.end).toBe(100);
    expect(end.start).toBeLessThan(100);
    expect(computeRowWindow(0, 40, 0, 560)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
    expect(computeRowWindow(3, 40, 0, 560)).toEqual({ start: 0, end: 3, padTop: 0, padBottom: 0 });
  });
});

describe('sortRows', () => {
  const rows: Row[] = [
    { name: 'miner-10', count: 3 },
    { name: null, count: 1 },
    { name: 'miner-2', count: 2 },
    { name: 'Miner-1', count: 2 },
  ];
  const columns = [col('name'), col('count'), col('twice', { sortValue: (row) => row.count * 2 })];

  it('sorts text naturally with empty values last', () => {
    expect(sortRows(rows, columns, { key: 'name', direction: 'asc' }).map((r) => r.name)).toEqual(['Miner-1', 'miner-2', 'miner-10', null]);
    expect(sortRows(rows, columns, { key: 'name', direction: 'desc' }).map((r) => r.name)).toEqual(['miner-10', 'miner-2', 'Miner-1', null]);
  });

  it('sorts numbers stably and uses sortValue', () => {
    expect(sortRows(rows, columns, { key: 'count', direction: 'asc' }).map((r) => r.name)).toEqual([null, 'miner-2', 'Miner-1', 'miner-10']);
    expect(sortRows(rows, columns, { key: 'twice', direction: 'desc' }).map((r) => r.count)).toEqual([3, 2, 2, 1]);
  });

  it('keeps the order without a sort and compares mixed values', () => {
    expect(sortRows(rows, columns, null)).toEqual(rows);
    expect(sortRows(rows, columns, null)).not.toBe(rows);
    expect(compareValues(2, 10)).toBeLessThan(0);
    expect(compareValues('a2', 'a10')).toBeLessThan(0);
    expect(compareValues(null, 1)).toBeGreaterThan(0);
    expect(compareValues(new Date(1), new Date(2))).toBeLessThan(0);
  });
});
