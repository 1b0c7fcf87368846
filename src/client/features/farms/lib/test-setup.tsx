/** Set-up shared by the farms feature's component tests (not shipped: only tests import it). */
import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import errors from '@locales/en-US/errors.json';
import farms from '@locales/en-US/farms.json';

/** An i18next instance with the farms and errors catalogues in English (the texts the tests read). */
export async function farmsI18n(): Promise<I18n> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { farms, errors } }, ns: ['farms', 'errors'], defaultNS: 'farms', interpolation: { escapeValue: false } });
  return i18n;
}

/** `ui` inside the console's providers (translations, queries and mutations without retries, Mantine). */
export function withProviders(i18n: I18n, ui: ReactElement): ReactElement {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MantineProvider>{ui}</MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
