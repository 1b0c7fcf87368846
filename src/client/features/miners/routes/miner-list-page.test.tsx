import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { BrowserRouter } from 'react-router-dom';
import miners from '@locales/en-US/miners.json';
import { setAgentKey } from '@client/lib/agent-key';
import { MinerListPage } from './miner-list-page';
import { minersI18n, resetPage, withProviders } from '../lib/test-setup';

let i18n: I18n;

beforeAll(async () => {
  i18n = await minersI18n();
});

afterEach(() => {
  resetPage();
  window.history.replaceState(null, '', '/');
});

const TOTAL = 1000;

describe('miner list paging', () => {
  it('goes to the last page when the address asks for a page past it', async () => {
    const pages: number[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      const u = new URL(url, 'http://localhost');
      if (u.pathname === '/api/miner/list') {
        const page = Number(u.searchParams.get('page'));
        const size = Number(u.searchParams.get('pageSize'));
        pages.push(page);
        const from = (page - 1) * size;
        const list = Array.from({ length: Math.max(0, Math.min(size, TOTAL - from)) }, (_, i) => ({ ip: `10.0.${Math.floor((from + i) / 250)}.${(from + i) % 250}`, online: true, statuses: ['online'], faultLabels: [], fans: [], network: 'dhcp', workMode: 'normal' }));
        return new Response(JSON.stringify({ code: 0, msg: 'success', data: { list, total: TOTAL } }));
      }
      return new Promise(() => undefined);
    });
    setAgentKey('north-hall');
    window.history.replaceState(null, '', '/device/miner?page=99');
    render(
      withProviders(
        i18n,
        <BrowserRouter>
          <MinerListPage />
        </BrowserRouter>,
      ),
    );
    await waitFor(() => expect(window.location.search).toBe('?page=20'));
    await waitFor(() => expect(screen.getAllByTestId('data-table-row').length).toBeGreaterThan(0));
    expect(pages).toEqual([99, 20]);
    expect(screen.queryByText(miners.list.empty)).toBeNull();
  });
});
