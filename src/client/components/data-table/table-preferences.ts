/**
 * Column order, visibility and widths of a DataTable, persisted per user under `table:<prefKey>`.
 */
import { useCallback, useMemo } from 'react';
import { usePreference } from '@client/lib/preferences';
import {
  DEFAULT_COLUMN_WIDTH,
  MIN_COLUMN_WIDTH,
  type Column,
  type TablePreferences,
} from './data-table-types';

const NO_PREFERENCES: TablePreferences = {};

export function tablePreferenceName(prefKey: string): string {
  return `table:${prefKey}`;
}

/** Default width of a column (its `width`, else 150), never below its minimum. */
export function defaultColumnWidth<Row>(column: Column<Row>): number {
  return Math.max(minColumnWidth(column), Math.round(column.width ?? DEFAULT_COLUMN_WIDTH));
}

/** Narrowest width of a column: its `minWidth`, but never below 60. */
export function minColumnWidth<Row>(column: Column<Row>): number {
  return Math.max(MIN_COLUMN_WIDTH, Math.round(column.minWidth ?? MIN_COLUMN_WIDTH));
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Drops anything malformed from stored preferences (they come from localStorage). */
export function sanitizePreferences(value: unknown): TablePreferences {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return NO_PREFERENCES;
  const record = value as Record<string, unknown>;
  const result: TablePreferences = {};
  if (isStringArray(record.order)) result.order = record.order;
  if (isStringArray(record.hidden)) result.hidden = record.hidden;
  if (typeof record.widths === 'object' && record.widths !== null && !Array.isArray(record.widths)) {
    const widths: Record<string, number> = {};
    for (const [key, width] of Object.entries(record.widths as Record<string, unknown>)) {
      if (typeof width === 'number' && Number.isFinite(width) && width > 0) widths[key] = width;
    }
    result.widths = widths;
  }
  return result;
}

/**
 * The user's column order: stored keys that still exist, with columns unknown to the stored
 * order inserted after the column that precedes them by default.
 */
export function resolveOrder(defaultKeys: readonly string[], saved: readonly string[] | undefined): string[] {
  const known = new Set(defaultKeys);
  const order: string[] = [];
  const seen = new Set<string>();
  for (const key of saved ?? []) {
    if (known.has(key) && !seen.has(key)) {
      order.push(key);
      seen.add(key);
    }
  }
  defaultKeys.forEach((key, index) => {
    if (seen.has(key)) return;
    let insertAt = 0;
    for (let i = index - 1; i >= 0; i -= 1) {
      const previous = order.indexOf(defaultKeys[i] ?? '');
      if (previous >= 0) {
        insertAt = previous + 1;
        break;
      }
    }
    order.splice(insertAt, 0, key);
    seen.add(key);
  });
  return order;
}

/**
 * Hidden keys: those the user hid, plus `defaultHidden` columns the stored order does not know yet.
 * If that would hide every column, nothing is hidden.
 */
export function resolveHidden<Row>(columns: readonly Column<Row>[], prefs: TablePreferences): Set<string> {
  const knownToUser = new Set(prefs.order ?? []);
  const hidden = new Set<string>();
  const userHidden = new Set(prefs.hidden ?? []);
  for (const column of columns) {
    if (userHidden.has(column.key) || (column.defaultHidden && !knownToUser.has(column.key))) hidden.add(column.key);
  }
  return hidden.size >= columns.length ? new Set() : hidden;
}

/** Places left-fixed columns first and right-fixed columns last, keeping the user's order otherwise. */
export function groupFixed<Row>(columns: readonly Column<Row>[]): Column<Row>[] {
  return [
    ...columns.filter((c) => c.fixed === 'left'),
    ...columns.filter((c) => c.fixed !== 'left' && c.fixed !== 'right'),
    ...columns.filter((c) => c.fixed === 'right'),
  ];
}

export interface TablePreferencesApi<Row> {
  /** Every column in the user's order (hidden ones included), for the column picker. */
  orderedColumns: Column<Row>[];
  /** Shown columns, fixed-left first and fixed-right last. */
  visibleColumns: Column<Row>[];
  hiddenKeys: ReadonlySet<string>;
  widths: Readonly<Record<string, number>>;
  /** Moves a column to the index another column has in the full order. */
  moveColumn: (key: string, toIndex: number) => void;
  /** Shows or hides a column. Returns false (and changes nothing) when it would hide the last column. */
  setColumnVisible: (key: string, visible: boolean) => boolean;
  /** Stores a width (clamped to the column minimum); `null` restores the default width. */
  setColumnWidth: (key: string, width: number | null) => void;
  /** Forgets order, visibility and widths of this table. */
  reset: () => void;
}

export function useTablePreferences<Row>(prefKey: string, columns: readonly Column<Row>[]): TablePreferencesApi<Row> {
  const [stored, setStored, resetStored] = usePreference<unknown>(tablePreferenceName(prefKey), NO_PREFERENCES);
  const prefs = useMemo(() => sanitizePreferences(stored), [stored]);

  const byKey = useMemo(() => new Map(columns.map((column) => [column.key, column])), [columns]);
  const defaultKeys = useMemo(() => columns.map((column) => column.key), [columns]);
  const order = useMemo(() => resolveOrder(defaultKeys, prefs.order), [defaultKeys, prefs.order]);
  const hiddenKeys = useMemo(() => resolveHidden(columns, prefs), [columns, prefs]);

  const orderedColumns = useMemo(
    () => order.map((key) => byKey.get(key)).filter((c): c is Column<Row> => c !== undefined),
    [order, byKey],
  );
  const visibleColumns = useMemo(
    () => groupFixed(orderedColumns.filter((column) => !hiddenKeys.has(column.key))),
    [orderedColumns, hiddenKeys],
  );
  const widths = useMemo(() => {
    const result: Record<string, number> = {};
    for (const column of columns) {
      const saved = prefs.widths?.[column.key];
      result[column.key] =
        saved === undefined ? defaultColumnWidth(column) : Math.max(minColumnWidth(column), Math.round(saved));
    }
    return result;
  }, [columns, prefs.widths]);

  const update = useCallback(
    (change: (current: TablePreferences) => TablePreferences) => {
      setStored((current: unknown) => change(sanitizePreferences(current)));
    },
    [setStored],
  );

  const moveColumn = useCallback(
    (key: string, toIndex: number) => {
      const from = order.indexOf(key);
      if (from < 0) return;
      const target = Math.max(0, Math.min(order.length - 1, toIndex));
      if (target === from) return;
      const next = order.filter((k) => k !== key);
      next.splice(target, 0, key);
      update((current) => ({ ...current, order: next }));
    },
    [order, update],
  );

  const setColumnVisible = useCallback(
    (key: string, visible: boolean) => {
      if (!byKey.has(key)) return false;
      const nextHidden = new Set(hiddenKeys);
      if (visible) nextHidden.delete(key);
      else nextHidden.add(key);
      if (defaultKeys.every((k) => nextHidden.has(k))) return false;
      update((current) => ({ ...current, order, hidden: defaultKeys.filter((k) => nextHidden.has(k)) }));
      return true;
    },
    [byKey, hiddenKeys, defaultKeys, order, update],
  );

  const setColumnWidth = useCallback(
    (key: string, width: number | null) => {
      const column = byKey.get(key);
      if (!column) return;
      update((current) => {
        const nextWidths = { ...current.widths };
        if (width === null) delete nextWidths[key];
        else nextWidths[key] = Math.max(minColumnWidth(column), Math.round(width));
        return { ...current, widths: nextWidths };
      });
    },
    [byKey, update],
  );

  return {
    orderedColumns,
    visibleColumns,
    hiddenKeys,
    widths,
    moveColumn,
    setColumnVisible,
    setColumnWidth,
    reset: resetStored,
  };
}
