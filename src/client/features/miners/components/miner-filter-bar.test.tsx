import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import miners from '@locales/en-US/miners.json';
import type { MinerFilter } from '@shared/schemas/miner';
import { MinerFilterBar } from './miner-filter-bar';

let i18n: I18n;

beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { miners } }, ns: ['miners'], defaultNS: 'miners', interpolation: { escapeValue: false } });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets the search box's 400 ms pause pass. */
const settle = () => act(() => vi.advanceTimersByTime(400));

/** The bar over a filter kept in state, as the list page keeps it in the address; every change is recorded. */
function mount(initial: MinerFilter) {
  // The dropdowns' options never arrive: this test is about the search box.
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  vi.useFakeTimers();
  const changes: MinerFilter[] = [];
  let setOutside: (f: MinerFilter) => void = () => undefined;
  function Host() {
    const [filter, setFilter] = useState(initial);
    setOutside = setFilter;
    return (
      <MinerFilterBar
        agentKey="north-hall"
        filter={filter}
        onChange={(next) => {
          changes.push(next);
          setFilter(next);
        }}
      />
    );
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MantineProvider>
          <Host />
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  const search = screen.getByTestId('miner-search') as HTMLInputElement;
  return { changes, search, setOutside: (f: MinerFilter) => act(() => setOutside(f)) };
}

describe('MinerFilterBar search', () => {
  it('sends a settled keyword once, keeping the other filters', () => {
    const { changes, search } = mount({ status: 'sleeping' });
    fireEvent.change(search, { target: { value: '10.0' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(search, { target: { value: ' 10.0.0.5 ' } });
    act(() => vi.advanceTimersByTime(300));
    expect(changes).toEqual([]);
    settle();
    expect(changes).toEqual([{ status: 'sleeping', keyword: '10.0.0.5' }]);
  });

  it('sends the same keyword again after the address dropped it (reset, then typed again)', () => {
    const { changes, search, setOutside } = mount({});
    fireEvent.change(search, { target: { value: 'HFA1' } });
    settle();
    setOutside({});
    expect(search.value).toBe('');
    fireEvent.change(search, { target: { value: 'HFA1' } });
    settle();
    expect(changes).toEqual([{ keyword: 'HFA1' }, { keyword: 'HFA1' }]);
  });

  it('follows a keyword from the address and drops what was being typed', () => {
    const { changes, search, setOutside } = mount({});
    fireEvent.change(search, { target: { value: 'typed' } });
    setOutside({ keyword: '10.0.0.9' });
    expect(search.value).toBe('10.0.0.9');
    settle();
    expect(changes).toEqual([]);
  });

  it('sends at once on Enter', () => {
    const { changes, search } = mount({});
    fireEvent.change(search, { target: { value: 'HFA2 ' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(changes).toEqual([{ keyword: 'HFA2' }]);
  });
});
