import 'fake-indexeddb/auto';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import offline from '@locales/en-US/offline.json';
import { type OutboxEntry, resetOfflineDbForTests } from '@client/lib/offline/db';
import { resetOutboxForTests } from '@client/lib/offline/outbox';
import { OfflineIndicator } from './offline-indicator';

let i18n: I18n;

beforeAll(async () => {
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
  }
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { offline } }, ns: ['offline'], defaultNS: 'offline', interpolation: { escapeValue: false } });
});

let db = resetOfflineDbForTests();
beforeEach(() => {
  resetOutboxForTests();
  db = resetOfflineDbForTests();
});
afterEach(() => {
  resetOutboxForTests();
  vi.unstubAllGlobals();
});

function wrap(node: ReactNode) {
  const client = new QueryClient();
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MantineProvider>
          <ModalsProvider>
            <MemoryRouter>{node}</MemoryRouter>
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

const entry = (extra: Partial<OutboxEntry>): OutboxEntry => ({
  id: '019a0000-0000-7000-8000-000000000001',
  kind: 'miner.note',
  method: 'POST',
  url: '/api/miner/notes',
  body: { ip: '10.0.0.1', text: 'x' },
  agentKey: 'farm-a',
  label: 'Note on 10.0.0.1',
  created: Date.now() - 1000,
  attempts: 0,
  state: 'pending',
  nextAttemptAt: 0,
  lastError: null,
  ...extra,
});

describe('OfflineIndicator', () => {
  it('counts waiting and refused changes, lists the server reason and resends a dead letter under a new key', async () => {
    await db.outbox.bulkAdd([
      entry({ id: '019a0000-0000-7000-8000-00000000000a', label: 'Note on 10.0.0.2' }),
      entry({
        id: '019a0000-0000-7000-8000-00000000000b',
        kind: 'miner.customer',
        url: '/api/miner/customer',
        label: 'Customer of 10.0.0.1 → Acme',
        state: 'dead',
        created: Date.now() - 500,
        lastError: { status: 409, code: '409', message: 'The record was changed by someone else', data: { current: { customer: 'Beta', marksVersion: '9' } } },
      }),
    ]);
    render(wrap(<OfflineIndicator />));
    const button = await screen.findByTestId('outbox-indicator');
    await waitFor(() => expect(button.getAttribute('data-pending')).toBe('1'));
    expect(button.getAttribute('data-dead')).toBe('1');
    expect(screen.getByTestId('outbox-pending-count').textContent).toBe('1');

    const keys: string[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      keys.push((init.headers as Record<string, string>)['Idempotency-Key']!);
      return { ok: true, status: 200, statusText: 'OK', text: async () => JSON.stringify({ code: 0, msg: 'success', data: { marksVersion: '10' } }) } as unknown as Response;
    });
    fireEvent.click(button);
    // The drawer is a lazy chunk: on a busy machine it takes longer than findBy's default second to load.
    const reason = await screen.findByTestId('outbox-dead-reason', {}, { timeout: 10_000 });
    expect(reason.textContent).toBe('Reason: The record was changed by someone else');
    expect(screen.getByTestId('outbox-pending-row').textContent).toContain('Note on 10.0.0.2');
    fireEvent.click(screen.getByTestId('dead-letter-retry'));
    await waitFor(async () => expect(await db.outbox.count()).toBe(0), { timeout: 10_000 });
    // The pending note went under its own key; the dead letter under a new one (its old key holds the 409).
    expect(keys).toHaveLength(2);
    expect(keys).toContain('019a0000-0000-7000-8000-00000000000a');
    expect(keys).not.toContain('019a0000-0000-7000-8000-00000000000b');
    await waitFor(() => expect(button.getAttribute('data-dead')).toBe('0'));
  });
});
