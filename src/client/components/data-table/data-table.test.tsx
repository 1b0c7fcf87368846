import { useState, type ReactNode } from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import enTable from '@locales/en-US/table.json';
import zhTable from '@locales/zh-CN/table.json';
import ruTable from '@locales/ru/table.json';
import { setPreferenceOwner } from '@client/lib/preferences';
import { DataTable, type DataTableProps } from './data-table';
import type { Column, RowKey, SortState } from './data-table-types';
import { ViewModeToggle } from './view-mode-toggle';

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'en-US',
  fallbackLng: 'zh-CN',
  ns: ['table'],
  defaultNS: 'table',
  resources: { 'en-US': { table: enTable }, 'zh-CN': { table: zhTable }, ru: { table: ruTable } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

interface Miner {
  id: number;
  name: string;
  ip: string;
  hashrate: number;
}

const COLUMNS: Column<Miner>[] = [
  { key: 'name', title: 'Name', sortable: true },
  { key: 'ip', title: 'IP', width: 180 },
  { key: 'hashrate', title: 'Hashrate', align: 'right', render: (row) => `${row.hashrate} TH/s` },
];

const PREF_KEY = '/device/miner:list';
const STORAGE_KEY = `hf:pref:anon:table:${PREF_KEY}`;

function makeRows(count: number): Miner[] {
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `miner-${i + 1}`, ip: `10.0.${Math.floor(i / 250)}.${i % 250}`, hashrate: 100 + (i % 20) }));
}

function Providers({ children }: { children: ReactNode }): ReactNode {
  return (
    <MantineProvider env="test">
      <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
    </MantineProvider>
  );
}

function renderTable(props: Partial<DataTableProps<Miner>> = {}) {
  const all: DataTableProps<Miner> = { columns: COLUMNS, rows: makeRows(3), rowKey: 'id', prefKey: PREF_KEY, ...props };
  return render(<DataTable<Miner> {...all} />, { wrapper: Providers });
}

function headerKeys(): string[] {
  return Array.from(document.querySelectorAll('th[data-column-key]')).map((th) => th.getAttribute('data-column-key') ?? '');
}

function storedPrefs(): { order?: string[]; hidden?: string[]; widths?: Record<string, number> } {
  return JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}') as never;
}

function openPicker() {
  fireEvent.click(screen.getByTestId('column-picker-button'));
}

beforeEach(() => {
  window.localStorage.clear();
  setPreferenceOwner(null);
  void i18n.changeLanguage('en-US');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DataTable rendering', () => {
  it('renders a real table with headers, rows and default cells', () => {
    renderTable({ ariaLabel: 'Miners' });
    expect(screen.getByTestId('data-table')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Miners' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'IP', 'Hashrate']);
    const rows = screen.getAllByTestId('data-table-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]?.textContent).toContain('miner-1');
    expect(rows[0]?.textContent).toContain('100 TH/s');
    expect(headerKeys()).toEqual(['name', 'ip', 'hashrate']);
  });

  it('uses default width 150 and column widths in the colgroup', () => {
    renderTable();
    const cols = Array.from(document.querySelectorAll('col')).map((col) => (col as HTMLElement).style.width);
    expect(cols).toEqual(['150px', '180px', '150px', '']);
  });

  it('shows row numbers (width 70) continuing across pages', () => {
    renderTable({
      rowNumbers: true,
      rows: makeRows(3),
      pagination: { total: 120, page: 2, pageSize: 50, onChange: () => undefined },
    });
    expect(document.querySelector('col')?.style.width).toBe('70px');
    expect(screen.getByRole('columnheader', { name: 'No.' })).toBeTruthy();
    expect(screen.getAllByTestId('data-table-row')[0]?.children[0]?.textContent).toBe('51');
  });

  it('shows empty, loading and error states', () => {
    const { rerender } = renderTable({ rows: [] });
    expect(screen.getByTestId('data-table-empty').textContent).toBe('No data');
    rerender(<DataTable<Miner> columns={COLUMNS} rows={[]} rowKey="id" prefKey={PREF_KEY} emptyText="Nothing here" />);
    expect(screen.getByTestId('data-table-empty').textContent).toBe('Nothing here');
    rerender(<DataTable<Miner> columns={COLUMNS} rows={[]} rowKey="id" prefKey={PREF_KEY} loading />);
    expect(screen.getByTestId('data-table-loading')).toBeTruthy();
    expect(screen.queryByTestId('data-table-empty')).toBeNull();
    rerender(<DataTable<Miner> columns={COLUMNS} rows={makeRows(2)} rowKey="id" prefKey={PREF_KEY} loading />);
    expect(screen.getByTestId('data-table-loading')).toBeTruthy();
    expect(screen.getAllByTestId('data-table-row')).toHaveLength(2);
    const onRetry = vi.fn();
    rerender(<DataTable<Miner> columns={COLUMNS} rows={[]} rowKey="id" prefKey={PREF_KEY} error={new Error('boom')} onRetry={onRetry} />);
    const error = screen.getByTestId('data-table-error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain('Failed to load data');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('renders toolbar and view toggle slots', () => {
    const onChange = vi.fn();
    renderTable({ toolbar: <button type="button">Add farm</button>, viewToggle: <ViewModeToggle value="list" onChange={onChange} /> });
    expect(screen.getByRole('button', { name: 'Add farm' })).toBeTruthy();
    fireEvent.click(screen.getByText('Shelf'));
    expect(onChange).toHaveBeenCalledWith('shelf');
  });

  it('translates its own texts', async () => {
    await act(async () => {
      await i18n.changeLanguage('zh-CN');
    });
    renderTable({ rows: [], rowNumbers: true });
    expect(screen.getByTestId('data-table-empty').textContent).toBe('暂无数据');
    expect(screen.getByRole('columnheader', { name: '序号' })).toBeTruthy();
  });
});

/** Three rows with selection kept in state (shown in "keys"); row 3 cannot be selected. */
function SelectionHarness({ initial, onRowClick }: { initial: RowKey[]; onRowClick?: (row: Miner) => void }): ReactNode {
  const [keys, setKeys] = useState<RowKey[]>(initial);
  return (
    <>
      <output data-testid="keys">{keys.join(',')}</output>
      <DataTable<Miner>
        columns={COLUMNS}
        rows={makeRows(3)}
        rowKey="id"
        prefKey={PREF_KEY}
        onRowClick={onRowClick}
        selection={{ selectedKeys: keys, onChange: setKeys, isRowSelectable: (row) => row.id !== 3 }}
      />
    </>
  );
}

describe('sorting and selection', () => {
  it('cycles sort and sets aria-sort', () => {
    const onSort = vi.fn();
    const { rerender } = renderTable({ onSort, sort: null });
    const nameHeader = screen.getByRole('columnheader', { name: 'Name' });
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'IP' }).getAttribute('aria-sort')).toBeNull();
    fireEvent.click(within(nameHeader).getByRole('button'));
    expect(onSort).toHaveBeenLastCalledWith({ key: 'name', direction: 'asc' } satisfies SortState);
    rerender(<DataTable<Miner> columns={COLUMNS} rows={makeRows(3)} rowKey="id" prefKey={PREF_KEY} onSort={onSort} sort={{ key: 'name', direction: 'asc' }} />);
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    expect(onSort).toHaveBeenLastCalledWith({ key: 'name', direction: 'desc' });
    rerender(<DataTable<Miner> columns={COLUMNS} rows={makeRows(3)} rowKey="id" prefKey={PREF_KEY} onSort={onSort} sort={{ key: 'name', direction: 'desc' }} />);
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    expect(onSort).toHaveBeenLastCalledWith(null);
  });

  it('selects rows and all visible rows with labelled checkboxes', () => {
    render(<SelectionHarness initial={[99]} />, { wrapper: Providers });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    expect(screen.getByTestId('keys').textContent).toBe('99,2');
    const all = screen.getByRole('checkbox', { name: 'Select all rows on this page' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(true);
    fireEvent.click(all);
    expect(screen.getByTestId('keys').textContent).toBe('99,1,2');
    expect((screen.getByRole('checkbox', { name: 'Select row 3' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByTestId('keys').textContent).toBe('99');
  });

  it('ticks a row from anywhere in its checkbox cell without opening it (a missed tap on a phone)', () => {
    const onRowClick = vi.fn();
    render(<SelectionHarness initial={[]} onRowClick={onRowClick} />, { wrapper: Providers });
    const cells = screen.getAllByTestId('data-table-check-cell');
    fireEvent.click(cells[1]!);
    expect(screen.getByTestId('keys').textContent).toBe('2');
    fireEvent.click(cells[1]!);
    expect(screen.getByTestId('keys').textContent).toBe('');
    fireEvent.click(cells[2]!); // not selectable: nothing, and still not opened
    expect(screen.getByTestId('keys').textContent).toBe('');
    expect(onRowClick).not.toHaveBeenCalled();
    fireEvent.click(screen.getAllByTestId('data-table-row')[0]!.querySelectorAll('td')[1]!);
    expect(onRowClick).toHaveBeenCalledTimes(1);
  });

  it('selects and clears the page from anywhere in the select-all cell, once per tap', () => {
    render(<SelectionHarness initial={[99]} />, { wrapper: Providers });
    const cell = screen.getByTestId('data-table-check-all-cell');
    const all = screen.getByRole('checkbox', { name: 'Select all rows on this page' }) as HTMLInputElement;
    fireEvent.click(cell);
    expect(screen.getByTestId('keys').textContent).toBe('99,1,2');
    expect(all.checked).toBe(true);
    // the box itself toggles once (its click does not reach the cell as a second toggle)
    fireEvent.click(all);
    expect(screen.getByTestId('keys').textContent).toBe('99');
    fireEvent.click(all);
    expect(screen.getByTestId('keys').textContent).toBe('99,1,2');
    fireEvent.click(cell);
    expect(screen.getByTestId('keys').textContent).toBe('99');
  });

  it('does nothing from the select-all cell when no row can be selected', () => {
    const onChange = vi.fn();
    renderTable({ rows: makeRows(2), selection: { selectedKeys: [], onChange, isRowSelectable: () => false } });
    fireEvent.click(screen.getByTestId('data-table-check-all-cell'));
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('column picker', () => {
  it('blocks hiding the last column with a message', () => {
    renderTable();
    openPicker();
    fireEvent.click(within(screen.getByTestId('column-picker-item-ip')).getByRole('checkbox'));
    fireEvent.click(within(screen.getByTestId('column-picker-item-hashrate')).getByRole('checkbox'));
    expect(headerKeys()).toEqual(['name']);
    expect(screen.queryByRole('alert')).toBeNull();
    const lastBox = within(screen.getByTestId('column-picker-item-name')).getByRole('checkbox') as HTMLInputElement;
    fireEvent.click(lastBox);
    expect(screen.getByRole('alert').textContent).toContain('Select at least one column');
    expect(headerKeys()).toEqual(['name']);
    expect(lastBox.checked).toBe(true);
    expect(storedPrefs().hidden).toEqual(['ip', 'hashrate']);
  });

  it('reorders with the up/down buttons and persists the order', () => {
    const { unmount } = renderTable();
    openPicker();
    fireEvent.click(screen.getByRole('button', { name: 'Move Name down' }));
    expect(headerKeys()).toEqual(['ip', 'name', 'hashrate']);
    fireEvent.click(screen.getByRole('button', { name: 'Move Hashrate up' }));
    expect(headerKeys()).toEqual(['ip', 'hashrate', 'name']);
    expect(storedPrefs().order).toEqual(['ip', 'hashrate', 'name']);
    unmount();
    renderTable();
    expect(headerKeys()).toEqual(['ip', 'hashrate', 'name']);
  });

  it('reorders by drag and drop', () => {
    renderTable();
    openPicker();
    const data = new Map<string, string>();
    const dataTransfer = {
      effectAllowed: 'all',
      dropEffect: 'none',
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
    };
    fireEvent.dragStart(screen.getByTestId('column-picker-item-hashrate'), { dataTransfer });
    fireEvent.dragOver(screen.getByTestId('column-picker-item-name'), { dataTransfer });
    fireEvent.drop(screen.getByTestId('column-picker-item-name'), { dataTransfer });
    expect(headerKeys()).toEqual(['hashrate', 'name', 'ip']);
    expect(storedPrefs().order).toEqual(['hashrate', 'name', 'ip']);
  });

  it('reset restores defaults', () => {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ order: ['hashrate', 'ip', 'name'], hidden: ['ip'], widths: { name: 300 } }));
    renderTable();
    expect(headerKeys()).toEqual(['hashrate', 'name']);
    openPicker();
    fireEvent.click(screen.getByTestId('column-picker-reset'));
    expect(headerKeys()).toEqual(['name', 'ip', 'hashrate']);
    expect(window.localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it('shows defaultHidden columns only after they are picked', () => {
    const columns: Column<Miner>[] = [...COLUMNS, { key: 'id', title: 'ID', defaultHidden: true }];
    renderTable({ columns });
    expect(headerKeys()).toEqual(['name', 'ip', 'hashrate']);
    openPicker();
    fireEvent.click(within(screen.getByTestId('column-picker-item-id')).getByRole('checkbox'));
    expect(headerKeys()).toEqual(['name', 'ip', 'hashrate', 'id']);
  });
});

describe('column widths', () => {
  it('restores widths, order and visibility from localStorage per user', () => {
    setPreferenceOwner({ id: 5, user: 'ops' });
    window.localStorage.setItem(
      `hf:pref:5:ops:table:${PREF_KEY}`,
      JSON.stringify({ order: ['ip', 'name', 'hashrate'], hidden: ['hashrate'], widths: { name: 222, ip: 10 } }),
    );
    renderTable();
    expect(headerKeys()).toEqual(['ip', 'name']);
    const cols = Array.from(document.querySelectorAll('col')).map((col) => (col as HTMLElement).style.width);
    expect(cols).toEqual(['60px', '222px', '']);
  });

  it('ignores corrupt stored preferences', () => {
    window.localStorage.setItem(STORAGE_KEY, '{oops');
    renderTable();
    expect(headerKeys()).toEqual(['name', 'ip', 'hashrate']);
  });

  it('resizes by dragging the header edge (min 60) and persists', () => {
    renderTable();
    const handle = screen.getByTestId('data-table-resizer-name');
    fireEvent.pointerDown(handle, { button: 0, clientX: 100 });
    fireEvent.pointerMove(window, { clientX: 180 });
    expect((document.querySelector('col') as HTMLElement).style.width).toBe('230px');
    expect(storedPrefs().widths).toBeUndefined();
    fireEvent.pointerUp(window, { clientX: 180 });
    expect(storedPrefs().widths).toEqual({ name: 230 });
    fireEvent.pointerDown(handle, { button: 0, clientX: 500 });
    fireEvent.pointerMove(window, { clientX: 0 });
    fireEvent.pointerUp(window);
    expect(storedPrefs().widths).toEqual({ name: 60 });
  });

  it('resizes with the keyboard and resets with Home', () => {
    renderTable();
    const handle = screen.getByRole('separator', { name: 'Resize column IP' });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    fireEvent.keyDown(handle, { key: 'ArrowRight', shiftKey: true });
    expect(storedPrefs().widths).toEqual({ ip: 240 });
    expect(handle.getAttribute('aria-valuenow')).toBe('240');
    fireEvent.keyDown(handle, { key: 'Home' });
    expect(storedPrefs().widths).toEqual({});
    expect(handle.getAttribute('aria-valuenow')).toBe('180');
  });
});

describe('pagination', () => {
  it('is hidden up to 50 rows and shown above 50', () => {
    const onChange = vi.fn();
    const { rerender } = renderTable({ pagination: { total: 50, page: 1, pageSize: 50, onChange } });
    expect(screen.queryByTestId('data-table-pagination')).toBeNull();
    rerender(<DataTable<Miner> columns={COLUMNS} rows={makeRows(3)} rowKey="id" prefKey={PREF_KEY} pagination={{ total: 51, page: 1, pageSize: 50, onChange }} />);
    const footer = screen.getByTestId('data-table-pagination');
    expect(footer.textContent).toContain('Total 51');
    fireEvent.click(within(footer).getByRole('button', { name: 'Page 2' }));
    expect(onChange).toHaveBeenLastCalledWith(2, 50);
    const size = within(footer).getByRole('combobox', { name: 'Rows per page' }) as HTMLSelectElement;
    expect(Array.from(size.options).map((o) => o.value)).toEqual(['50', '100']);
    fireEvent.change(size, { target: { value: '100' } });
    expect(onChange).toHaveBeenLastCalledWith(1, 100);
  });
});

describe('scrolling and virtualisation', () => {
  it('renders every row without fixed height up to 13 rows', () => {
    renderTable({ rows: makeRows(13) });
    expect(screen.getAllByTestId('data-table-row')).toHaveLength(13);
    expect(screen.getByTestId('data-table-viewport').hasAttribute('data-scroll')).toBe(false);
  });

  it('uses a fixed-height viewport above 13 rows', () => {
    renderTable({ rows: makeRows(14) });
    const viewport = screen.getByTestId('data-table-viewport');
    expect(viewport.hasAttribute('data-scroll')).toBe(true);
    expect(viewport.style.maxHeight).toBe('560px');
    expect(screen.getAllByTestId('data-table-row')).toHaveLength(14);
  });

  it('renders only a window of 20,000 rows and follows scrolling', () => {
    const rows = makeRows(20_000);
    const started = performance.now();
    renderTable({ rows, rowNumbers: true, selection: { selectedKeys: [], onChange: () => undefined } });
    const elapsed = performance.now() - started;
    const rendered = screen.getAllByTestId('data-table-row');
    expect(rendered.length).toBeGreaterThan(13);
    expect(rendered.length).toBeLessThan(60);
    expect(rendered[0]?.getAttribute('data-row-key')).toBe('1');
    expect(screen.getByRole('table').getAttribute('aria-rowcount')).toBe('20001');
    expect(elapsed).toBeLessThan(2000);

    const viewport = screen.getByTestId('data-table-viewport');
    act(() => {
      viewport.scrollTop = 40 * 10_000;
      fireEvent.scroll(viewport);
    });
    const keys = screen.getAllByTestId('data-table-row').map((row) => Number(row.getAttribute('data-row-key')));
    expect(keys.length).toBeLessThan(60);
    expect(keys).toContain(10_001);
    expect(Math.min(...keys)).toBeGreaterThan(9_980);
    const spacers = document.querySelectorAll('tbody > tr[aria-hidden="true"]');
    const total = Array.from(spacers).reduce((sum, tr) => sum + parseFloat((tr as HTMLElement).style.height), 0);
    expect(total + keys.length * 40).toBe(20_000 * 40);
    expect(screen.getAllByTestId('data-table-row')[0]?.children[1]?.textContent).toBe(String(Math.min(...keys)));
  });
});

describe('cut cells', () => {
  /** jsdom lays nothing out: a cell is "cut" when its scrollWidth exceeds its clientWidth, as these stubs say. */
  function cutCells(cut: (cell: HTMLElement) => boolean) {
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return cut(this) ? 300 : 100;
    });
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(100);
  }
  const hashrateCell = (row = 0) => screen.getAllByRole('row')[row + 1]!.querySelectorAll('td')[2] as HTMLElement;

  it('shows a cut cell’s whole text in a bubble on a tap, closed by the next tap elsewhere or Escape', () => {
    cutCells((el) => el.tagName === 'TD' && (el.textContent ?? '').includes('TH/s'));
    renderTable();
    fireEvent.click(hashrateCell(0));
    expect(screen.getByTestId('data-table-cell-peek').textContent).toBe('100 TH/s');
    fireEvent.pointerDown(document.body);
    expect(screen.queryByTestId('data-table-cell-peek')).toBeNull();
    fireEvent.click(hashrateCell(1));
    expect(screen.getByTestId('data-table-cell-peek').textContent).toBe('101 TH/s');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByTestId('data-table-cell-peek')).toBeNull();
  });

  it('shows nothing for a cell that is not cut, nor when a row’s tap opens it', () => {
    cutCells(() => false);
    renderTable();
    fireEvent.click(hashrateCell(0));
    expect(screen.queryByTestId('data-table-cell-peek')).toBeNull();
    vi.restoreAllMocks();
    cutCells(() => true);
    const opened: number[] = [];
    renderTable({ onRowClick: (row) => opened.push(row.id) });
    fireEvent.click(screen.getAllByTestId('data-table')[1]!.querySelectorAll('tbody tr')[0]!.querySelectorAll('td')[2]!);
    expect(opened).toEqual([1]);
    expect(screen.queryByTestId('data-table-cell-peek')).toBeNull();
  });

  it('titles a cut rendered cell with its text now when the pointer rests on it, and not a cell that fits', () => {
    let cut = true;
    cutCells((el) => cut && el.tagName === 'TD');
    // A rendered cell (an element, not text) has no title of its own.
    const columns: Column<Miner>[] = [...COLUMNS.slice(0, 2), { key: 'hashrate', title: 'Hashrate', render: (row) => <b>{row.hashrate} TH/s</b> }];
    const { rerender } = renderTable({ columns });
    expect(hashrateCell(0).hasAttribute('title')).toBe(false);
    fireEvent.mouseOver(hashrateCell(0));
    expect(hashrateCell(0).title).toBe('100 TH/s');
    // The row's value changes (a refresh): the next hover titles it afresh.
    rerender(<DataTable<Miner> columns={columns} rows={makeRows(3).map((r) => ({ ...r, hashrate: r.hashrate + 5 }))} rowKey="id" prefKey={PREF_KEY} />);
    fireEvent.mouseOver(hashrateCell(0));
    expect(hashrateCell(0).title).toBe('105 TH/s');
    cut = false;
    fireEvent.mouseOver(hashrateCell(0));
    expect(hashrateCell(0).hasAttribute('title')).toBe(false);
  });
});
