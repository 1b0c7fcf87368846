/** /device/hash as an operator meets it: a farm without miners shows no rates, and a failed load can be retried where it says so. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router-dom';
import { setAgentKey } from '@client/lib/agent-key';
import type { MinerIndexStat } from '@shared/schemas/miner';
import { HashrateOverviewPage } from './hashrate-overview-page';
import { minersI18n, resetPage, withProviders } from '../lib/test-setup';

let i18n: I18n;
beforeAll(async () => {
  i18n = await minersI18n();
});
afterEach(resetPage);

const EMPTY_FARM: MinerIndexStat = {
  total: 0,
  online: 0,
  qualified: 0,
  onlineRate: 0,
  qualifiedRate: 0,
  realGhs: 0,
  idealGhs: 0,
  tempMax: null,
  tempAvg: null,
  topFaults: [],
  updatedAt: null,
};

/** The page with GET /api/miner/indexStat answered by `index` (called once per request); the series is empty. */
function mount(index: () => Response) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    const path = new URL(url, 'http://localhost').pathname;
    asked.push(path);
    if (path === '/api/miner/indexStat') return index();
    if (path === '/api/miner/farmSeries') return new Response(JSON.stringify({ code: 0, msg: 'success', data: [] }));
    return new Promise(() => undefined);
  });
  setAgentKey('north-hall');
  render(
    withProviders(
      i18n,
      <MemoryRouter initialEntries={['/device/hash']}>
        <HashrateOverviewPage />
      </MemoryRouter>,
    ),
  );
  return asked;
}

describe('hashrate overview', () => {
  it('a farm without miners shows no online or qualified rate (not "0.0% (0/0)")', async () => {
    mount(() => new Response(JSON.stringify({ code: 0, msg: 'success', data: EMPTY_FARM })));
    expect((await screen.findByTestId('overview-online-rate')).textContent).toBe('Online rate-');
    expect(screen.getByTestId('overview-qualified-rate').textContent).toBe('Qualified rate-');
    expect(await screen.findByTestId('farm-series-empty')).toBeTruthy();
  });

  it('the figures failing to load: said with a retry that asks again', async () => {
    let fail = true;
    const asked = mount(() =>
      fail
        ? new Response(JSON.stringify({ code: 400, msg: 'boom', data: null }), { status: 400 })
        : new Response(JSON.stringify({ code: 0, msg: 'success', data: { ...EMPTY_FARM, total: 4, online: 3, qualified: 3, onlineRate: 75, qualifiedRate: 100 } })),
    );
    const error = await screen.findByTestId('index-stat-error');
    expect(error.textContent).toContain('The farm figures could not be loaded.');
    fail = false;
    fireEvent.click(screen.getByTestId('index-stat-retry'));
    await waitFor(() => expect(screen.getByTestId('overview-online-rate').textContent).toBe('Online rate75.0% (3/4)'));
    expect(asked.filter((p) => p === '/api/miner/indexStat')).toHaveLength(2);
    expect(screen.queryByTestId('index-stat-error')).toBeNull();
  });
});
