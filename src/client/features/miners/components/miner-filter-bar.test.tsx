import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
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

/**
 * The bar over a filter kept as the list page keeps it in the address: `address` changes at once, the bar sees it
 * when its host renders (on the page, a transition that can lag). Every change that reaches the address is recorded.
 */
function mount(initial: MinerFilter) {
  // The dropdowns' options never arrive: this test is about the search box.
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  vi.useFakeTimers();
  const changes: MinerFilter[] = [];
  let address = initial;
  let render_: (f: MinerFilter) => void = () => undefined;
  function Host() {
    const [filter, setFilter] = useState(initial);
    render_ = setFilter;
    return (
      <MinerFilterBar
        agentKey="north-hall"
        filter={filter}
        onChange={(update) => {
          const next = update(address);
          if (next === address) return;
          address = next;
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
  return {
    changes,
    search,
    /** The address changed by someone else (reset, back button, a counter) and rendered. */
    setOutside: (f: MinerFilter) => {
      address = f;
      act(() => render_(f));
    },
    /** The address changed, not rendered yet. */
    setAddressOnly: (f: MinerFilter) => {
      address = f;
    },
  };
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

  it('applies the keyword to the filter in the address, not to the one last rendered', () => {
    const { changes, search, setAddressOnly } = mount({ status: 'sleeping' });
    setAddressOnly({}); // "Clear filters" is in the address, its render still pending
    fireEvent.change(search, { target: { value: 'HFA3' } });
    settle();
    expect(changes).toEqual([{ keyword: 'HFA3' }]);
  });

  it('sends at once on Enter', () => {
    const { changes, search } = mount({});
    fireEvent.change(search, { target: { value: 'HFA2 ' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(changes).toEqual([{ keyword: 'HFA2' }]);
  });
});

describe('MinerFilterBar error-code dropdown', () => {
  const OFFLINE_104 = '-104 Offline: connection closed before a reply (miner software hung or restarting)';
  function mountOptions(filter: MinerFilter) {
    // The farm's codes now: only -104 (the miners that said -110 are back).
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input);
      const data = url.includes('/api/options/errorCode') ? [{ text: OFFLINE_104, value: '-104' }] : [];
      return new Response(JSON.stringify({ code: 0, msg: 'success', data }), { headers: { 'Content-Type': 'application/json' } });
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MantineProvider>
            <MinerFilterBar agentKey="north-hall" filter={filter} onChange={() => undefined} />
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    return screen.getByTestId('miner-filter-errorCode') as HTMLInputElement;
  }

  it("names an agent's code from the address that no miner reports now, as the dropdown would", async () => {
    const input = mountOptions({ errorCode: '-110' });
    await waitFor(() => expect(input.value).toBe('-110 Offline: no answer (powered off, or a cable or switch is down)'));
  });

  it('keeps a code that is not the agent\'s as it is', async () => {
    const input = mountOptions({ errorCode: '350' });
    await waitFor(() => expect(input.value).toBe('350'));
  });

  it("opens a list wider than the 160 px field on a desktop, so a code's message is not six lines", async () => {
    const input = mountOptions({});
    fireEvent.click(input);
    const option = await screen.findByText(OFFLINE_104);
    const dropdown = option.closest('.mantine-Select-dropdown') as HTMLElement;
    expect(dropdown.style.width).toContain('26.25rem'); // 420 px
  });
});
