/** /statistics/deviceType on a phone: a refresh button of a finger's size; "click a model" only over models to click. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router-dom';
import { setAgentKey } from '@client/lib/agent-key';
import type { MinerModelStat } from '@shared/schemas/miner';
import { ModelStatsPage } from './model-stats-page';
import { minersI18n, resetPage, withProviders } from '../lib/test-setup';

let i18n: I18n;
beforeAll(async () => {
  i18n = await minersI18n();
});
const desktop = window.matchMedia;
afterEach(() => {
  resetPage();
  window.matchMedia = desktop;
});

function mount(stats: MinerModelStat[], phone = false) {
  if (phone) window.matchMedia = (query: string) => ({ ...desktop(query), matches: query.includes('max-width') });
  vi.stubGlobal('fetch', async (url: string) =>
    new URL(url, 'http://localhost').pathname === '/api/miner/modelstat' ? new Response(JSON.stringify({ code: 0, msg: 'success', data: stats })) : new Promise(() => undefined),
  );
  setAgentKey('north-hall');
  render(
    withProviders(
      i18n,
      <MemoryRouter initialEntries={['/statistics/deviceType']}>
        <ModelStatsPage />
      </MemoryRouter>,
    ),
  );
}

const S21: MinerModelStat = { model: 'S21', make: 'Antminer', count: 4, online: 4, qualified: 3, realGhs: 800_000, idealGhs: 800_000 };

describe('model statistics', () => {
  it('on a phone the refresh button is a finger\u2019s target (sm, 36 px), not the desk\u2019s 30 px', async () => {
    mount([S21], true);
    expect((await screen.findByTestId('model-stats-refresh')).getAttribute('data-size')).toBe('sm');
  });

  it('"click a model to list its miners" shows over models, not over an empty farm', async () => {
    mount([S21]);
    expect((await screen.findByTestId('model-stats-hint')).textContent).toBe('Click a model to list its miners.');
    resetPage();
    mount([]);
    expect(await screen.findByText('No miners yet.')).toBeTruthy();
    expect(screen.queryByTestId('model-stats-hint')).toBeNull();
  });
});
