import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { i18n as I18n } from 'i18next';
import { farmsI18n, withProviders } from '../lib/test-setup';
import { MinerLoginsCard } from './miner-logins-card';

let i18n: I18n;

beforeAll(async () => {
  i18n = await farmsI18n();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderCard() {
  return render(withProviders(i18n, <MinerLoginsCard agentKey="north-1" canOperate />));
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('MinerLoginsCard', () => {
  it("shows the server's field problem under the field once, not again in a notification", async () => {
    const limit = 'At most 10 logins per firmware';
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        String(url).startsWith('/api/agent/minerLogins/save')
          ? json({ code: 1001, msg: limit, data: { fields: { family: limit } } }, 400)
          : json({ code: 0, msg: 'success', data: [] }),
      ),
    );
    const show = vi.spyOn(notifications, 'show');
    renderCard();
    await screen.findByTestId('miner-logins-empty');
    fireEvent.click(screen.getByTestId('miner-login-add'));
    const password = await waitFor(() => {
      const el = document.querySelector<HTMLInputElement>('[name="minerPassword"]');
      if (!el) throw new Error('no password field');
      return el;
    });
    fireEvent.change(password, { target: { value: 'secret' } });
    fireEvent.submit(screen.getByTestId('miner-login-form'));
    expect(await screen.findByText(limit)).toBeTruthy();
    expect(show).not.toHaveBeenCalled();
  });
});
