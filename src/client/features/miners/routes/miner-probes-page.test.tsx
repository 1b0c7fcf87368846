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
  it('states the hot threshold in the unit chosen', async () => {
    const list = [row('10.0.0.1', 92), row('10.0.0.2', 86), row('10.0.0.3', 70)];
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 0, msg: 'success', data: { list, total: list.length } })));
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
    expect(hot.textContent).toBe('2 at 85 °C or more');
    fireEvent.click(screen.getByText('°F'));
    await waitFor(() => expect(hot.textContent).toBe('2 at 185 °F or more'));
    fireEvent.click(screen.getByText('K'));
    await waitFor(() => expect(hot.textContent).toBe('2 at 358.1 K or more'));
  });
});
