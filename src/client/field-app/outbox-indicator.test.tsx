import 'fake-indexeddb/auto';
import { Suspense } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import field from '@locales/en-US/field.json';
import offline from '@locales/en-US/offline.json';
import { reportNetworkFailure, reportServerAnswer, resetConnectivityForTests } from '@client/lib/offline/connectivity';
import { type OutboxEntry, resetOfflineDbForTests } from '@client/lib/offline/db';
import { resetOutboxForTests } from '@client/lib/offline/outbox';
import { OutboxIndicator } from './outbox-indicator';

let i18n: I18n;

beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { offline, field } }, ns: ['offline', 'field'], defaultNS: 'offline', interpolation: { escapeValue: false } });
  // jsdom has <dialog> without the modal methods.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

let db = resetOfflineDbForTests();
beforeEach(() => {
  resetOutboxForTests();
  resetConnectivityForTests();
  db = resetOfflineDbForTests();
});
afterEach(() => {
  resetOutboxForTests();
  vi.unstubAllGlobals();
});

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

describe('OutboxIndicator (field app)', () => {
  it('counts waiting and refused changes, opens the sync panel with the reason and resends a dead letter under a new key', async () => {
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
    render(
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={null}>
          <OutboxIndicator />
        </Suspense>
      </I18nextProvider>,
    );
    const button = await screen.findByTestId('outbox-indicator');
    await waitFor(() => expect(button.getAttribute('data-pending')).toBe('1'));
    expect(button.getAttribute('data-dead')).toBe('1');
    expect(screen.getByTestId('outbox-pending-count').textContent).toBe('1');
    expect(screen.getByTestId('outbox-dead-count').hidden).toBe(false);
    expect(button.getAttribute('aria-label')).toBe('Sync and offline changes: Online · 1 change waiting · 1 change refused');

    const keys: string[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      keys.push((init.headers as Record<string, string>)['Idempotency-Key']!);
      return { ok: true, status: 200, statusText: 'OK', text: async () => JSON.stringify({ code: 0, msg: 'success', data: { marksVersion: '10' } }) } as unknown as Response;
    });
    fireEvent.click(button);
    const reason = await screen.findByTestId('outbox-dead-reason', {}, { timeout: 15_000 }); // the panel loads lazily
    expect(reason.textContent).toBe('Reason: The record was changed by someone else');
    expect(screen.getByTestId('outbox-drawer').hasAttribute('open')).toBe(true);
    expect(screen.getByTestId('outbox-pending-row').textContent).toContain('Note on 10.0.0.2');
    // Edit offers the server's current value of the conflicting customer change.
    fireEvent.click(screen.getByTestId('dead-letter-edit-open'));
    expect((await screen.findByTestId('dead-letter-conflict')).textContent).toContain('now Beta');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('dead-letter-edit')).toBeNull());

    fireEvent.click(screen.getByTestId('dead-letter-retry'));
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    // The pending note went under its own key; the dead letter under a new one (its old key holds the 409).
    expect(keys).toHaveLength(2);
    expect(keys).toContain('019a0000-0000-7000-8000-00000000000a');
    expect(keys).not.toContain('019a0000-0000-7000-8000-00000000000b');
    await waitFor(() => expect(button.getAttribute('data-dead')).toBe('0'));
    await screen.findByText('No refused changes.');
  });

  it('tells "server unreachable" (navigator online, no answer) apart from online', async () => {
    await db.outbox.add(entry({ state: 'failed' }));
    render(
      <I18nextProvider i18n={i18n}>
        <OutboxIndicator />
      </I18nextProvider>,
    );
    const button = await screen.findByTestId('outbox-indicator');
    await waitFor(() => expect(button.getAttribute('data-pending')).toBe('1'));
    expect(button.getAttribute('data-reason')).toBe('online');
    act(() => reportNetworkFailure());
    expect(button.getAttribute('data-online')).toBe('false');
    expect(button.getAttribute('data-reason')).toBe('server-unreachable');
    expect(button.className).toContain('is-unreachable');
    expect(button.getAttribute('aria-label')).toBe(
      'Sync and offline changes: Server unreachable · 1 change waiting. Changes are kept on this device and sent when the server answers again.',
    );
    act(() => reportServerAnswer());
    expect(button.getAttribute('data-online')).toBe('true');
    expect(button.getAttribute('aria-label')).toBe('Sync and offline changes: Online · 1 change waiting');
  });
});
