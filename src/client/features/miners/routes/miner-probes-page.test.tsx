import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router-dom';
import { setAgentKey } from '@client/lib/agent-key';
import type { MinerRow } from '@shared/schemas/miner';
import { MinerProbesPage } from './miner-probes-page';
import { minersI18n, resetPage, withProviders } from '../lib/test-setup';

let i18n: I18n;

beforeAll(async () => {
  i18n = await minersI18n();
});

afterEach(() => {
  resetPage();
  localStorage.clear();
});

const row = (ip: string, tempChipMax: number) => ({ ip, online: true, tempChipMax }) as MinerRow;

describe('probe wall', () => {
  it("states the farm's hot miners and the threshold in the unit chosen", async () => {
    const list = [row('10.0.0.1', 92), row('10.0.0.2', 86), row('10.0.0.3', 70)];
    const asked: URL[] = [];
    // The page's rows, and the farm's count of hot miners (more than the page holds: page 1 shows at most 240).
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://console');
      asked.push(url);
      const hot = url.searchParams.get('tempChipFrom') !== null;
      return new Response(JSON.stringify({ code: 0, msg: 'success', data: hot ? { list: list.slice(0, 1), total: 412 } : { list, total: 5000 } }));
    });
    setAgentKey('north-hall');
    render(
      withProviders(
        i18n,
        <MemoryRouter>
          <MinerProbesPage />
        </MemoryRouter>,
      ),
    );
    const hot = await screen.findByTestId('probes-hot');
    await waitFor(() => expect(hot.textContent).toBe('412 at 85 °C or more'));
    const count = asked.find((u) => u.searchParams.get('tempChipFrom') === '85');
    expect(count?.searchParams.get('status')).toBe('online');
    expect(count?.searchParams.get('pageSize')).toBe('1');
    fireEvent.click(screen.getByText('°F'));
    await waitFor(() => expect(hot.textContent).toBe('412 at 185 °F or more'));
    fireEvent.click(screen.getByText('K'));
    await waitFor(() => expect(hot.textContent).toBe('412 at 358.1 K or more'));
  });
});
