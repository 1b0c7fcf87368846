import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import errors from '@locales/en-US/errors.json';
import farms from '@locales/en-US/farms.json';
import { MinerLoginsCard } from './miner-logins-card';

let i18n: I18n;

beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { farms, errors } },
    ns: ['farms', 'errors'],
    defaultNS: 'farms',
    interpolation: { escapeValue: false },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MantineProvider>
          <MinerLoginsCard agentKey="north-1" canOperate />
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
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
