/**
 * DataTable: the list component of every screen (spec 1 §9, spec 2 "Generic data table behaviour").
 *
 * - Real <table> with fixed layout; widths come from a <colgroup> so resizing is cheap.
 * - Above 13 rows the body scrolls inside a fixed-height viewport with a sticky header and only
 *   the visible window of fixed-height rows is rendered (20,000 rows stay fast).
 * - Column order, visibility and widths persist per user under preference `table:<prefKey>`.
 * - Server-side pagination is shown only when total > 50 (page sizes 50 / 100).
 * - A cell cut off by its column shows its whole text: as its title on hover, in a bubble on a tap (cell-peek.tsx).
 *
 * Pass memoised `columns` (useMemo) so rows are not re-rendered on every parent render.
 */
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react';
import { Button, Loader, NativeSelect, Pagination, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@shared/format/number';
import { usePhone } from '@client/lib/use-phone';
import { useCellPeek } from './cell-peek';
import { ColumnPicker, columnLabel } from './column-picker';
import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_ROW_HEIGHT,
  PAGE_SIZE_OPTIONS,
  PAGINATION_THRESHOLD,
  ROW_NUMBER_WIDTH,
  SCROLL_THRESHOLD,
  SELECTION_COLUMN_WIDTH,
  type Column,
  type DataTablePagination,
  type DataTableSelection,
  type RowKey,
  type SortState,
} from './data-table-types';
import { minColumnWidth, useTablePreferences } from './table-preferences';
import { useRowWindow } from './use-row-window';
import classes from './data-table.module.css';

export interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** A field of the row holding a unique key, or a function returning it. */
  rowKey: (keyof Row & string) | ((row: Row, index: number) => RowKey);
  /** Preferences are stored per route and tab: pass e.g. `${location.pathname}:${tab}`. */
  prefKey: string;
  loading?: boolean;
  /** Any truthy value shows the error state (with a retry button when `onRetry` is given). */
  error?: unknown;
  onRetry?: () => void;
  /** Shown when there are no rows (default: translated "No data"). */
  emptyText?: ReactNode;
  /** Adds a row-number column (width 70); numbers continue across pages. */
  rowNumbers?: boolean;
  selection?: DataTableSelection<Row>;
  /** Controlled sort; the parent sorts the rows (see sortRows) or asks the server. */
  sort?: SortState | null;
  onSort?: (sort: SortState | null) => void;
  pagination?: DataTablePagination;
  /** Left part of the toolbar (filters, buttons); wraps on narrow screens. */
  toolbar?: ReactNode;
  /** Slot next to the column picker, e.g. <ViewModeToggle /> for list / shelf. */
  viewToggle?: ReactNode;
  /** Show the column picker button (default true). */
  columnPicker?: boolean;
  /** Fixed row height in px used for windowing (default 40). */
  rowHeight?: number;
  /** Height in px of the scrolling viewport when there are more than 13 rows (default 14 × rowHeight). */
  height?: number;
  onRowClick?: (row: Row, index: number) => void;
  /** Accessible name of the table. */
  ariaLabel?: string;
}

type CellKind = 'select' | 'number' | 'column' | 'filler';

interface CellLayout<Row> {
  kind: CellKind;
  key: string;
  column?: Column<Row>;
  width?: number;
  style?: CSSProperties;
  fixed: boolean;
}

interface ResizeState {
  key: string;
  width: number;
}

const EMPTY_CELL = '-';

function defaultCellContent<Row>(row: Row, column: Column<Row>): ReactNode {
  const value = (row as Record<string, unknown>)[column.key];
  if (value === null || value === undefined || value === '') return EMPTY_CELL;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return String(value);
  return EMPTY_CELL;
}

function ariaSort(sort: SortState | null | undefined, key: string): 'ascending' | 'descending' | 'none' {
  if (!sort || sort.key !== key) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

function nextSort(sort: SortState | null | undefined, key: string): SortState | null {
  if (!sort || sort.key !== key) return { key, direction: 'asc' };
  return sort.direction === 'asc' ? { key, direction: 'desc' } : null;
}

interface DataTableRowProps<Row> {
  row: Row;
  index: number;
  rowNumber: number;
  rowKeyValue: RowKey;
  layout: readonly CellLayout<Row>[];
  selected: boolean;
  selectable: boolean;
  selectLabel: string;
  onToggle: ((key: RowKey, checked: boolean) => void) | undefined;
  onRowClick: ((row: Row, index: number) => void) | undefined;
}

function DataTableRowInner<Row>({
  row,
  index,
  rowNumber,
  rowKeyValue,
  layout,
  selected,
  selectable,
  selectLabel,
  onToggle,
  onRowClick,
}: DataTableRowProps<Row>): ReactNode {
  return (
    <tr
      className={classes.row}
      data-testid="data-table-row"
      data-row-key={String(rowKeyValue)}
      data-selected={selected || undefined}
      data-clickable={onRowClick ? true : undefined}
      aria-rowindex={index + 2}
      onClick={onRowClick ? () => onRowClick(row, index) : undefined}
    >
      {layout.map((cell) => {
        switch (cell.kind) {
          case 'select':
            return (
              <td
                key={cell.key}
                className={`${classes.td} ${classes.checkCell}`}
                style={cell.style}
                data-fixed={cell.fixed || undefined}
                data-testid="data-table-check-cell"
                // The whole cell is the checkbox's target: a finger that misses the 16 px box on a phone ticks the row
                // instead of opening it (the row's click), as the box's own click never does either.
                onClick={(event) => {
                  event.stopPropagation();
                  if (selectable) onToggle?.(rowKeyValue, !selected);
                }}
              >
                {/* Native checkbox: thousands of rows scroll through here, it must stay cheap. */}
                <input
                  type="checkbox"
                  className={classes.checkbox}
                  aria-label={selectLabel}
                  checked={selected}
                  disabled={!selectable}
                  onClick={(event) => event.stopPropagation()}
                  onChange={(event) => onToggle?.(rowKeyValue, event.currentTarget.checked)}
                />
              </td>
            );
          case 'number':
            return (
              <td key={cell.key} className={classes.td} style={cell.style} data-fixed={cell.fixed || undefined}>
                {rowNumber}
              </td>
            );
          case 'filler':
            return <td key={cell.key} className={`${classes.td} ${classes.filler}`} aria-hidden="true" />;
          default: {
            const column = cell.column as Column<Row>;
            const content = column.render ? column.render(row, index) : defaultCellContent(row, column);
            return (
              <td
                key={cell.key}
                className={classes.td}
                style={cell.style}
                data-fixed={cell.fixed || undefined}
                title={typeof content === 'string' || typeof content === 'number' ? String(content) : undefined}
              >
                {content}
              </td>
            );
          }
        }
      })}
    </tr>
  );
}

const DataTableRow = memo(DataTableRowInner) as typeof DataTableRowInner;

export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  prefKey,
  loading = false,
  error,
  onRetry,
  emptyText,
  rowNumbers = false,
  selection,
  sort,
  onSort,
  pagination,
  toolbar,
  viewToggle,
  columnPicker = true,
  rowHeight = DEFAULT_ROW_HEIGHT,
  height,
  onRowClick,
  ariaLabel,
}: DataTableProps<Row>): ReactNode {
  const { t } = useTranslation('table');
  // Tap targets of at least 32 px on a phone (the xs retry button and page-size select are 30 px tall, the pages 26 px).
  const phone = usePhone();
  const tableId = useId();
  const prefs = useTablePreferences(prefKey, columns);
  const { visibleColumns, widths, setColumnWidth } = prefs;
  const viewportRef = useRef<HTMLDivElement>(null);
  const [resizing, setResizing] = useState<ResizeState | null>(null);
  const stopResizeRef = useRef<(() => void) | null>(null);

  // A cut cell's whole text: its title on hover; on a tap, when a row's tap opens nothing else (cell-peek.tsx).
  const peek = useCellPeek(!onRowClick);

  const total = pagination?.total ?? rows.length;
  const scrolling = total > SCROLL_THRESHOLD || rows.length > SCROLL_THRESHOLD;
  const viewportHeight = height ?? rowHeight * (SCROLL_THRESHOLD + 1);
  const { window: rowWindow, onScroll } = useRowWindow(viewportRef, {
    count: rows.length,
    rowHeight,
    enabled: scrolling,
    fallbackHeight: viewportHeight,
  });

  const widthOf = useCallback(
    (key: string): number => (resizing?.key === key ? resizing.width : (widths[key] ?? 0)),
    [resizing, widths],
  );

  // Width of the viewport: keeps messages centred in view on a wide, scrolled table and turns
  // fixed columns off when they would cover more than half of a narrow (phone) viewport.
  const [viewportWidth, setViewportWidth] = useState<number | null>(null);
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return undefined;
    const measure = () => setViewportWidth(viewport.clientWidth > 0 ? viewport.clientWidth : null);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(viewport);
    return () => observer.disconnect();
  }, []);

  // Cell layout: [select][number][columns (left-fixed first)][filler][right-fixed columns].
  const layout = useMemo((): CellLayout<Row>[] => {
    const hasLeftFixed = visibleColumns.some((column) => column.fixed === 'left');
    const cells: CellLayout<Row>[] = [];
    if (selection) cells.push({ kind: 'select', key: '__select', width: SELECTION_COLUMN_WIDTH, fixed: hasLeftFixed });
    if (rowNumbers) cells.push({ kind: 'number', key: '__number', width: ROW_NUMBER_WIDTH, fixed: hasLeftFixed });
    const right: CellLayout<Row>[] = [];
    for (const column of visibleColumns) {
      const cell: CellLayout<Row> = {
        kind: 'column',
        key: column.key,
        column,
        width: widthOf(column.key),
        fixed: column.fixed === 'left' || column.fixed === 'right',
      };
      if (column.fixed === 'right') right.push(cell);
      else cells.push(cell);
    }
    cells.push({ kind: 'filler', key: '__filler', fixed: false });
    cells.push(...right);

    let left = 0;
    for (const cell of cells) {
      if (cell.kind === 'filler' || !cell.fixed || cell.column?.fixed === 'right') break;
      cell.style = { position: 'sticky', left };
      left += cell.width ?? 0;
    }
    let offset = 0;
    for (let i = cells.length - 1; i >= 0; i -= 1) {
      const cell = cells[i];
      if (!cell || cell.column?.fixed !== 'right') break;
      cell.style = { position: 'sticky', right: offset };
      offset += cell.width ?? 0;
    }
    if (viewportWidth !== null && left + offset > viewportWidth / 2) {
      for (const cell of cells) {
        cell.fixed = false;
        cell.style = undefined;
      }
    }
    for (const cell of cells) {
      const align = cell.column?.align;
      if (align && align !== 'left') cell.style = { ...cell.style, textAlign: align };
      if (cell.kind === 'number') cell.style = { ...cell.style, textAlign: 'center' };
    }
    return cells;
  }, [visibleColumns, selection, rowNumbers, widthOf, viewportWidth]);

  const tableMinWidth = layout.reduce((sum, cell) => sum + (cell.width ?? 0), 0);

  const getKey = useMemo(
    () =>
      typeof rowKey === 'function'
        ? rowKey
        : (row: Row): RowKey => {
            const value = row[rowKey];
            return typeof value === 'number' ? value : String(value);
          },
    [rowKey],
  );

  const selectedSet = useMemo(() => new Set<RowKey>(selection?.selectedKeys ?? []), [selection?.selectedKeys]);
  const isSelectable = selection?.isRowSelectable;

  const pageState = useMemo(() => {
    if (!selection) return { all: false, some: false, keys: [] as RowKey[] };
    const keys: RowKey[] = [];
    let selectedCount = 0;
    rows.forEach((row, index) => {
      if (isSelectable && !isSelectable(row)) return;
      const key = getKey(row, index);
      keys.push(key);
      if (selectedSet.has(key)) selectedCount += 1;
    });
    return { all: keys.length > 0 && selectedCount === keys.length, some: selectedCount > 0, keys };
  }, [selection, rows, isSelectable, getKey, selectedSet]);

  const selectionRef = useRef(selection);
  useEffect(() => {
    selectionRef.current = selection;
  });

  const onToggleRow = useCallback((key: RowKey, checked: boolean) => {
    const current = selectionRef.current;
    if (!current) return;
    const without = current.selectedKeys.filter((k) => k !== key);
    current.onChange(checked ? [...without, key] : without);
  }, []);

  const onToggleAll = () => {
    if (!selection) return;
    const pageKeys = new Set(pageState.keys);
    const others = selection.selectedKeys.filter((key) => !pageKeys.has(key));
    selection.onChange(pageState.all ? others : [...others, ...pageState.keys]);
  };

  const selectRowLabel = useCallback((rowNumber: number) => t('selectRow', { index: rowNumber }), [t]);

  // Scroll back to the top when the page changes.
  const page = pagination?.page;
  const pageSize = pagination?.pageSize;
  useEffect(() => {
    const viewport = viewportRef.current;
    if (viewport) viewport.scrollTop = 0;
  }, [page, pageSize]);

  useEffect(() => () => stopResizeRef.current?.(), []);

  const startResize = (event: ReactPointerEvent<HTMLDivElement>, column: Column<Row>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    stopResizeRef.current?.();
    const startX = event.clientX;
    const startWidth = widthOf(column.key);
    const min = minColumnWidth(column);
    let latest = startWidth;
    const onMove = (move: PointerEvent) => {
      latest = Math.max(min, Math.round(startWidth + move.clientX - startX));
      setResizing({ key: column.key, width: latest });
    };
    const stop = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      stopResizeRef.current = null;
    };
    const onUp = () => {
      stop();
      setResizing(null);
      if (latest !== startWidth) setColumnWidth(column.key, latest);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
    stopResizeRef.current = stop;
    setResizing({ key: column.key, width: startWidth });
  };

  const onResizeKey = (event: ReactKeyboardEvent<HTMLDivElement>, column: Column<Row>) => {
    const step = event.shiftKey ? 50 : 10;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      setColumnWidth(column.key, widthOf(column.key) + (event.key === 'ArrowRight' ? step : -step));
    } else if (event.key === 'Home' || event.key === 'Escape') {
      event.preventDefault();
      setColumnWidth(column.key, null);
    }
  };

  const showError = Boolean(error) && !loading;
  const showLoadingRow = loading && rows.length === 0;
  const showEmpty = !loading && !showError && rows.length === 0;
  const showPagination = pagination !== undefined && pagination.total > PAGINATION_THRESHOLD;
  const rowNumberOffset = pagination ? (Math.max(1, pagination.page) - 1) * pagination.pageSize : 0;
  const messageStyle: CSSProperties | undefined = viewportWidth ? { width: viewportWidth } : undefined;

  const renderMessage = (content: ReactNode, testId: string, role?: 'alert' | 'status') => (
    <tr>
      <td className={classes.messageCell} colSpan={layout.length}>
        <div className={classes.message} style={messageStyle} data-testid={testId} role={role}>
          {content}
        </div>
      </td>
    </tr>
  );

  const renderedRows: ReactNode[] = [];
  if (!showError) {
    for (let index = rowWindow.start; index < rowWindow.end; index += 1) {
      const row = rows[index] as Row;
      const key = getKey(row, index);
      const rowNumber = rowNumberOffset + index + 1;
      renderedRows.push(
        <DataTableRow<Row>
          key={key}
          row={row}
          index={index}
          rowNumber={rowNumber}
          rowKeyValue={key}
          layout={layout}
          selected={selection ? selectedSet.has(key) : false}
          selectable={isSelectable ? isSelectable(row) : true}
          selectLabel={selection ? selectRowLabel(rowNumber) : ''}
          onToggle={selection ? onToggleRow : undefined}
          onRowClick={onRowClick}
        />,
      );
    }
  }

  const pageSizeOptions = pagination?.pageSizeOptions ?? PAGE_SIZE_OPTIONS;
  const currentPageSize = pagination?.pageSize ?? DEFAULT_PAGE_SIZE;
  const pageCount = Math.max(1, Math.ceil(total / currentPageSize));

  return (
    <div className={classes.root} data-testid="data-table">
      {(toolbar || viewToggle || columnPicker) && (
        <div className={classes.toolbar}>
          <div className={classes.toolbarMain}>{toolbar}</div>
          <div className={classes.toolbarEnd}>
            {viewToggle}
            {columnPicker && (
              <ColumnPicker
                columns={prefs.orderedColumns}
                hiddenKeys={prefs.hiddenKeys}
                onMove={prefs.moveColumn}
                onToggle={prefs.setColumnVisible}
                onReset={prefs.reset}
              />
            )}
          </div>
        </div>
      )}

      <div className={classes.frame} style={{ '--dt-row-height': `${rowHeight}px` } as CSSProperties}>
        <div
          ref={viewportRef}
          className={classes.viewport}
          data-scroll={scrolling || undefined}
          style={scrolling ? { maxHeight: viewportHeight } : undefined}
          onScroll={scrolling ? onScroll : undefined}
          data-testid="data-table-viewport"
        >
          <table
            className={classes.table}
            style={{ minWidth: tableMinWidth }}
            aria-label={ariaLabel}
            aria-busy={loading || undefined}
            aria-rowcount={rows.length + 1}
          >
            <colgroup>
              {layout.map((cell) => (
                <col key={cell.key} style={cell.width === undefined ? undefined : { width: cell.width }} />
              ))}
            </colgroup>
            <thead>
              <tr aria-rowindex={1}>
                {layout.map((cell) => {
                  if (cell.kind === 'select') {
                    return (
                      <th
                        key={cell.key}
                        scope="col"
                        className={`${classes.th} ${classes.checkCell}`}
                        style={cell.style}
                        data-fixed={cell.fixed || undefined}
                        data-testid="data-table-check-all-cell"
                        // As in the rows: the whole cell is the target of the select-all box (a finger-size one on a phone).
                        onClick={() => {
                          if (pageState.keys.length > 0) onToggleAll();
                        }}
                      >
                        <input
                          type="checkbox"
                          className={classes.checkbox}
                          aria-label={t('selectAll')}
                          checked={pageState.all}
                          ref={(element) => {
                            if (element) element.indeterminate = pageState.some && !pageState.all;
                          }}
                          aria-checked={pageState.some && !pageState.all ? 'mixed' : pageState.all}
                          disabled={pageState.keys.length === 0}
                          onClick={(event) => event.stopPropagation()}
                          onChange={onToggleAll}
                        />
                      </th>
                    );
                  }
                  if (cell.kind === 'number') {
                    return (
                      <th key={cell.key} scope="col" className={classes.th} style={cell.style} data-fixed={cell.fixed || undefined}>
                        {t('rowNumber')}
                      </th>
                    );
                  }
                  if (cell.kind === 'filler') {
                    return <th key={cell.key} className={`${classes.th} ${classes.filler}`} aria-hidden="true" />;
                  }
                  const column = cell.column as Column<Row>;
                  const label = columnLabel(column);
                  const sortable = Boolean(column.sortable && onSort);
                  const direction = ariaSort(sort, column.key);
                  const SortIcon = direction === 'ascending' ? IconArrowUp : direction === 'descending' ? IconArrowDown : IconArrowsSort;
                  const width = widthOf(column.key);
                  // The header is named by its title only, not by the resize handle inside it.
                  const titleId = `${tableId}-title-${column.key.replace(/\s+/g, '_')}`;
                  return (
                    <th
                      key={cell.key}
                      scope="col"
                      className={classes.th}
                      style={cell.style}
                      data-fixed={cell.fixed || undefined}
                      aria-sort={sortable ? direction : undefined}
                      aria-labelledby={titleId}
                      data-column-key={column.key}
                    >
                      <div className={classes.thInner} data-align={column.align ?? 'left'}>
                        {sortable ? (
                          <UnstyledButton
                            className={classes.sortButton}
                            onClick={() => onSort?.(nextSort(sort, column.key))}
                            title={t('sortBy', { column: label })}
                          >
                            <span className={classes.thTitle} id={titleId}>
                              {column.title}
                            </span>
                            <SortIcon size={14} className={classes.sortIcon} data-active={direction !== 'none' || undefined} aria-hidden="true" />
                          </UnstyledButton>
                        ) : (
                          <span className={classes.thTitle} id={titleId} title={label}>
                            {column.title}
                          </span>
                        )}
                      </div>
                      <div
                        className={classes.resizer}
                        role="separator"
                        aria-orientation="vertical"
                        aria-label={t('resizeColumn', { column: label })}
                        aria-valuenow={width}
                        aria-valuemin={minColumnWidth(column)}
                        tabIndex={0}
                        data-active={resizing?.key === column.key || undefined}
                        data-testid={`data-table-resizer-${column.key}`}
                        onPointerDown={(event) => startResize(event, column)}
                        onKeyDown={(event) => onResizeKey(event, column)}
                        onDoubleClick={() => setColumnWidth(column.key, null)}
                        onClick={(event) => event.stopPropagation()}
                      />
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody onMouseOver={peek.onMouseOver} onClick={peek.onClick}>
              {showError &&
                renderMessage(
                  <>
                    <IconAlertTriangle size={28} color="var(--mantine-color-red-6)" aria-hidden="true" />
                    <Text size="sm" c="red.7">
                      {t('loadFailed')}
                    </Text>
                    {onRetry && (
                      <Button size={phone ? 'sm' : 'xs'} variant="light" onClick={onRetry} data-testid="data-table-retry">
                        {t('retry')}
                      </Button>
                    )}
                  </>,
                  'data-table-error',
                  'alert',
                )}
              {showLoadingRow &&
                renderMessage(
                  <>
                    <Loader size="sm" />
                    <Text size="sm">{t('loading')}</Text>
                  </>,
                  'data-table-loading',
                  'status',
                )}
              {showEmpty && renderMessage(<Text size="sm">{emptyText ?? t('empty')}</Text>, 'data-table-empty')}
              {rowWindow.padTop > 0 && !showError && (
                <tr className={classes.spacer} aria-hidden="true" style={{ height: rowWindow.padTop }}>
                  <td colSpan={layout.length} />
                </tr>
              )}
              {renderedRows}
              {rowWindow.padBottom > 0 && !showError && (
                <tr className={classes.spacer} aria-hidden="true" style={{ height: rowWindow.padBottom }}>
                  <td colSpan={layout.length} />
                </tr>
              )}
            </tbody>
          </table>
        </div>
        {peek.bubble}
        {loading && rows.length > 0 && (
          <div className={classes.overlay} data-testid="data-table-loading" role="status" aria-label={t('loading')}>
            <Loader size="sm" />
          </div>
        )}
      </div>

      {showPagination && pagination && (
        <div className={classes.footer} data-testid="data-table-pagination">
          <Text size="sm" c="dimmed">
            {t('total', { total: formatNumber(pagination.total) })}
          </Text>
          {/* On a phone 32 px controls (sm ones are 26 px) and no sibling pages: at most seven controls, 272 px. */}
          <Pagination
            size={phone ? 'md' : 'sm'}
            siblings={phone ? 0 : 1}
            boundaries={1}
            total={pageCount}
            value={Math.min(Math.max(1, pagination.page), pageCount)}
            onChange={(next) => pagination.onChange(next, currentPageSize)}
            getControlProps={(control) => ({ 'aria-label': t(`${control}Page`) })}
            getItemProps={(item) => ({ 'aria-label': t('page', { page: item }) })}
          />
          <NativeSelect
            size={phone ? 'sm' : 'xs'}
            w={110}
            aria-label={t('pageSizeLabel')}
            value={String(currentPageSize)}
            data={pageSizeOptions.map((size) => ({ value: String(size), label: t('pageSize', { size }) }))}
            onChange={(event) => pagination.onChange(1, Number(event.currentTarget.value))}
            data-testid="data-table-page-size"
          />
        </div>
      )}
    </div>
  );
}
