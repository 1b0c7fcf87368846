/** Set-up shared by the miners feature's component and page tests (not shipped: only tests import it). */
import { cleanup } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { vi } from 'vitest';
import miners from '@locales/en-US/miners.json';
import { setAgentKey } from '@client/lib/agent-key';

/** An i18next instance with the miners catalogue in English (the texts the tests read). */
export async function minersI18n(): Promise<I18n> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { miners } }, ns: ['miners'], defaultNS: 'miners', interpolation: { escapeValue: false } });
  return i18n;
}

/** After a page test: unmounted before the farm is forgotten (which would re-render the page), fetch restored. */
export function resetPage(): void {
  cleanup();
  vi.unstubAllGlobals();
  setAgentKey(null);
}
