import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import common from '@locales/en-US/common.json';
import { formatDate } from '@shared/format/date';
import { setAgentKey } from '@client/lib/agent-key';
import { AgentOfflineNotice } from './agent-offline-notice';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAgentKey(null);
});

async function renderWithStatus(status: { isOnline: boolean; lastOnlineAt: string | null; netDelay: number }): Promise<{ asked: () => number }> {
  let asked = 0;
  vi.stubGlobal('fetch', async (url: string) => {
    if (new URL(url, 'http://localhost').pathname === '/api/agent/status') {
      asked++;
      return new Response(JSON.stringify({ code: 0, msg: 'success', data: status }));
    }
    return new Promise(() => undefined);
  });
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { common } }, ns: ['common'], defaultNS: 'common', interpolation: { escapeValue: false } });
  setAgentKey('north-hall');
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MantineProvider env="test">
          <div data-testid="page">
            <AgentOfflineNotice />
          </div>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { asked: () => asked };
}

describe('agent offline notice', () => {
  it("says since when the farm's agent has not reported, and that the figures are not live", async () => {
    const last = '2026-11-24T23:41:00.000Z';
    await renderWithStatus({ isOnline: false, lastOnlineAt: last, netDelay: 0 });
    const notice = await screen.findByTestId('agent-offline-notice');
    expect(notice.textContent).toContain("The farm's agent is not reporting");
    expect(notice.textContent).toContain(`Its last report was at ${formatDate(last)}`);
    expect(notice.textContent).toContain('not live');
  });

  it('shows nothing while the agent reports, nor for an agent that never connected', async () => {
    for (const status of [
      { isOnline: true, lastOnlineAt: '2026-11-24T23:41:00.000Z', netDelay: 12 },
      { isOnline: false, lastOnlineAt: null, netDelay: 0 },
    ]) {
      const r = await renderWithStatus(status);
      await waitFor(() => expect(r.asked()).toBe(1));
      // the answer is in: give React the render it causes
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(screen.queryByTestId('agent-offline-notice')).toBeNull();
      expect(screen.getByTestId('page').textContent).toBe('');
      cleanup();
      vi.unstubAllGlobals();
    }
  });
});
