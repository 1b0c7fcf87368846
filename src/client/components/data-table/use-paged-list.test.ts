import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePagedList } from './use-paged-list';

describe('usePagedList', () => {
  it('goes back to page 1 on a new filter (clearing the selection) or search, and pages through its pager', () => {
    const { result } = renderHook(() => usePagedList<'a' | 'b'>());
    act(() => result.current.pagination(500).onChange(3, 100));
    act(() => result.current.setSelected(['x', 'y']));
    expect(result.current).toMatchObject({ page: 3, pageSize: 100, selected: ['x', 'y'] });
    act(() => result.current.setSearch('10.0.'));
    expect(result.current).toMatchObject({ page: 1, search: '10.0.', selected: ['x', 'y'] });
    act(() => result.current.pagination(500).onChange(2, 100));
    act(() => result.current.setFilter('b'));
    expect(result.current).toMatchObject({ filter: 'b', page: 1, pageSize: 100, selected: [] });
    expect(result.current.pagination(42)).toMatchObject({ total: 42, page: 1, pageSize: 100 });
  });
});
