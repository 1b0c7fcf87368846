/**
 * The state of a list paged on the server with a filter (count buttons), a search and a selection — the off-shelf
 * pages, the abnormal alarms: choosing a filter goes back to page 1 and clears the selection (the rows it selected
 * are no longer shown), a new search goes back to page 1, and `pagination(total)` is the table's pager.
 */
import { useState } from 'react';
import type { DataTablePagination, RowKey } from './data-table-types';

export interface PagedList<F extends string> {
  filter: F | null;
  setFilter: (f: F | null) => void;
  search: string;
  setSearch: (text: string) => void;
  page: number;
  pageSize: number;
  selected: RowKey[];
  setSelected: (keys: RowKey[]) => void;
  pagination: (total: number) => DataTablePagination;
}

export function usePagedList<F extends string = never>(pageSizeDefault = 50): PagedList<F> {
  const [filter, setFilterState] = useState<F | null>(null);
  const [search, setSearchState] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(pageSizeDefault);
  const [selected, setSelected] = useState<RowKey[]>([]);
  return {
    filter,
    setFilter: (f) => {
      setFilterState(f);
      setPage(1);
      setSelected([]);
    },
    search,
    setSearch: (text) => {
      setSearchState(text);
      setPage(1);
    },
    page,
    pageSize,
    selected,
    setSelected,
    pagination: (total) => ({
      total,
      page,
      pageSize,
      onChange: (p, s) => {
        setPage(p);
        setPageSize(s);
      },
    }),
  };
}
