/**
 * Public types and constants of DataTable (spec 1 §9, spec 2 "Generic data table behaviour" and §9).
 */
import type { ReactNode } from 'react';

/** Default column width (spec 2 §9). */
export const DEFAULT_COLUMN_WIDTH = 150;
/** Narrowest width a column can be resized to. */
export const MIN_COLUMN_WIDTH = 60;
/** Width of the row-number column (spec 2 §9). */
export const ROW_NUMBER_WIDTH = 70;
/** Width of the selection checkbox column. */
export const SELECTION_COLUMN_WIDTH = 48;
/** Default page size and options (spec 1 §9). */
export const DEFAULT_PAGE_SIZE = 50;
export const PAGE_SIZE_OPTIONS: readonly number[] = [50, 100];
/** Pagination is shown only when the total is above this (spec 1 §9). */
export const PAGINATION_THRESHOLD = 50;
/** Fixed-height scrolling (sticky header, windowed rows) when the total is above this (spec 1 §9). */
export const SCROLL_THRESHOLD = 13;
/** Fixed row height used for windowing. */
export const DEFAULT_ROW_HEIGHT = 40;
/** Rows rendered above and below the visible window. */
export const OVERSCAN_ROWS = 8;

export type RowKey = string | number;
export type ColumnAlign = 'left' | 'center' | 'right';
export type SortDirection = 'asc' | 'desc';

export interface SortState {
  key: string;
  direction: SortDirection;
}

export interface Column<Row> {
  /** Unique, stable key; also the preference key and, without `render`, the field shown. */
  key: string;
  /** Header content: an already translated string or a node. */
  title: ReactNode;
  /** Plain-text name for the column picker's labels when `title` is not a string. */
  label?: string;
  /** Initial width in px (default 150). */
  width?: number;
  /** Narrowest width when resizing (never below 60). */
  minWidth?: number;
  /** Cell content; without it the row's `key` field is shown ('-' when empty). */
  render?: (row: Row, index: number) => ReactNode;
  /** Header becomes a sort button cycling ascending → descending → none. */
  sortable?: boolean;
  /** Value used by sortRows() (default: the row's `key` field). */
  sortValue?: (row: Row) => string | number | boolean | Date | null | undefined;
  align?: ColumnAlign;
  /** Sticks to the left or right edge while scrolling horizontally. */
  fixed?: 'left' | 'right';
  /** Hidden until the user shows it in the column picker. */
  defaultHidden?: boolean;
}

export interface DataTablePagination {
  /** Total rows on the server. Pagination is shown only when total > 50. */
  total: number;
  /** 1-based current page. */
  page: number;
  pageSize: number;
  /** Called with the new page and size; changing the size goes back to page 1. */
  onChange: (page: number, pageSize: number) => void;
  /** Default [50, 100]. */
  pageSizeOptions?: readonly number[];
}

export interface DataTableSelection<Row> {
  /** Controlled selected row keys (may include keys of rows on other pages). */
  selectedKeys: readonly RowKey[];
  onChange: (keys: RowKey[]) => void;
  /** Rows for which this returns false get a disabled checkbox. */
  isRowSelectable?: (row: Row) => boolean;
}

/** Stored under preference `table:<prefKey>` (see src/client/lib/preferences.ts). */
export interface TablePreferences {
  /** Every known column key in the user's order. */
  order?: string[];
  /** Keys the user hid. */
  hidden?: string[];
  /** Widths in px set by resizing. */
  widths?: Record<string, number>;
}
