/** Set-up shared by the miners feature's component and page tests (not shipped: only tests import it). */
import type { ReactElement } from 'react';
import { cleanup } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
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

/** A query client that does not retry (a test's failed answer is final). */
export const testQueryClient = (): QueryClient => new QueryClient({ defaultOptions: { queries: { retry: false } } });

/** `ui` inside the console's providers (translations, queries, Mantine); a page's router stays with the test. */
export function withProviders(i18n: I18n, ui: ReactElement, client: QueryClient = testQueryClient()): ReactElement {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MantineProvider env="test">{ui}</MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
