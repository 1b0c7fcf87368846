import { describe, expect, it } from 'vitest';
import { pageBeyondLast, readListState, writeListState } from './miner-filter';

describe('miner list paging', () => {
  it('sends a page past the last one to the last page', () => {
    // ?page=99 of 1000 miners at 50 a page: page 20.
    expect(pageBeyondLast(99, 50, 1000)).toBe(20);
    expect(pageBeyondLast(21, 50, 1001)).toBeNull();
    expect(pageBeyondLast(22, 50, 1001)).toBe(21);
    expect(pageBeyondLast(3, 100, 150)).toBe(2);
  });

  it('leaves a page that exists alone', () => {
    expect(pageBeyondLast(1, 50, 1000)).toBeNull();
    expect(pageBeyondLast(20, 50, 1000)).toBeNull();
    expect(pageBeyondLast(1, 50, 0)).toBeNull();
  });

  it('sends a page of an empty answer to page 1', () => {
    expect(pageBeyondLast(5, 50, 0)).toBe(1);
  });

  it('keeps the page in the address', () => {
    const state = readListState(new URLSearchParams('page=99&status=offline'));
    expect(state.page).toBe(99);
    expect(writeListState({ ...state, page: pageBeyondLast(state.page, state.pageSize, 1000) ?? state.page }).toString()).toBe('status=offline&page=20');
  });
});

describe('miner list filter in the address', () => {
  it('keeps the records filters (customer, sub-area, accident type) across a reload', () => {
    const state = readListState(new URLSearchParams('customer=12&subArea=7&accident=power-failure&status=offline'));
    expect(state.filter).toEqual({ status: 'offline', customer: '12', subArea: '7', accident: 'power-failure' });
    expect(readListState(writeListState(state)).filter).toEqual(state.filter);
    // The counts over time are statuses of the filter (the counters and the dashboard link to them).
    expect(readListState(new URLSearchParams('status=offline24h')).filter).toEqual({ status: 'offline24h' });
    expect(readListState(new URLSearchParams('status=qualified8h')).filter).toEqual({ status: 'qualified8h' });
    expect(readListState(new URLSearchParams('status=bogus')).filter).toEqual({});
    // An error code from the errorCode dropdown; a value that is not a code is dropped.
    expect(readListState(new URLSearchParams('errorCode=2010')).filter).toEqual({ errorCode: '2010' });
    expect(readListState(new URLSearchParams('errorCode=-401')).filter).toEqual({ errorCode: '-401' });
    expect(readListState(new URLSearchParams('errorCode=x1')).filter).toEqual({});
  });
});
