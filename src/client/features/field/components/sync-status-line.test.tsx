import 'fake-indexeddb/auto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import field from '@locales/en-US/field.json';
import { reportNetworkFailure, resetConnectivityForTests, startConnectivity } from '@client/lib/offline/connectivity';
import { resetOfflineDbForTests } from '@client/lib/offline/db';
import { SyncStatusLine } from './sync-status-line';

let i18n: I18n;
beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { field } }, ns: ['field'], defaultNS: 'field', interpolation: { escapeValue: false } });
});

let online = true;
beforeEach(() => {
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  resetConnectivityForTests();
  resetOfflineDbForTests();
});
afterEach(() => resetConnectivityForTests());

const renderLine = () =>
  render(
    <I18nextProvider i18n={i18n}>
      <SyncStatusLine agentKey="farm-a" />
    </I18nextProvider>,
  );

describe('SyncStatusLine', () => {
  it('while the server is unreachable, "Sync now" asks it at once instead of waiting for the next probe', async () => {
    let answer: (ok: boolean) => void = () => undefined;
    const probe = vi.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const stop = startConnectivity({ probe });
    try {
      renderLine();
      act(() => reportNetworkFailure());
      await screen.findByTestId('field-server-unreachable');
      const button = screen.getByTestId('field-sync-now') as HTMLButtonElement;
      expect(button.disabled).toBe(false);
      fireEvent.click(button);
      expect(probe).toHaveBeenCalledTimes(1); // at once, not after the backoff's 5 s
      await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
      expect(button.disabled).toBe(true); // one question at a time
      await act(async () => answer(true));
      await waitFor(() => expect(screen.queryByTestId('field-server-unreachable')).toBeNull());
      expect(button.getAttribute('aria-busy')).toBe('false');
    } finally {
      stop();
    }
  });

  it('a probe without an answer leaves it unreachable and the button usable again', async () => {
    const probe = vi.fn(async () => false);
    const stop = startConnectivity({ probe });
    try {
      renderLine();
      act(() => reportNetworkFailure());
      const button = (await screen.findByTestId('field-sync-now')) as HTMLButtonElement;
      fireEvent.click(button);
      await waitFor(() => expect(probe).toHaveBeenCalledTimes(1));
      await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('false'));
      expect(screen.getByTestId('field-server-unreachable')).toBeTruthy();
      expect(button.disabled).toBe(false);
    } finally {
      stop();
    }
  });

  it('offline (no network at all): the button is disabled', async () => {
    online = false;
    renderLine();
    await screen.findByTestId('field-offline');
    expect((screen.getByTestId('field-sync-now') as HTMLButtonElement).disabled).toBe(true);
  });
});
