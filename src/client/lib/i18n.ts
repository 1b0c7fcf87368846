/**
 * i18next set-up (spec 1 §1): zh-CN is the default and the fallback, en-US and ru are the others.
 * Catalogues are JSON files src/locales/<lang>/<namespace>.json, found with import.meta.glob so Vite bundles
 * them as chunks and the service worker precaches them; a namespace loads when a component first asks for it.
 */
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { setNumberLocale } from '@shared/format/number';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, normaliseLocale, type Locale } from '@shared/validation';
import { chooseLocale, LOCALE_STORAGE_KEY } from './locale-choice';
import { readStorage, writeStorage } from './safe-storage';

type Catalogue = Record<string, unknown>;

const catalogues = import.meta.glob<Catalogue>('/src/locales/*/*.json', { import: 'default' });

/** Namespaces the shell needs on every screen; feature namespaces load on demand. */
export const SHELL_NAMESPACES = ['common', 'menu', 'shell', 'errors'] as const;

export function catalogueLoader(lng: string, ns: string): (() => Promise<Catalogue>) | undefined {
  return catalogues[`/src/locales/${lng}/${ns}.json`];
}

/** i18next backend reading the bundled catalogues (the console's and the light field app's). */
export const globBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(lng: string, ns: string, callback: ReadCallback) {
    const load = catalogueLoader(lng, ns);
    if (!load) {
      // A namespace missing for this language falls back to zh-CN through i18next's fallbackLng.
      callback(null, {});
      return;
    }
    load().then(
      (data) => callback(null, data as never),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

export function initialLocale(): Locale {
  const nav = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  const choice = chooseLocale({
    search: typeof window === 'undefined' ? '' : window.location.search,
    stored: readStorage('local', LOCALE_STORAGE_KEY),
    browser: nav,
  });
  // A language given by link (?i18n=ru) becomes the remembered choice, like choosing it in the header.
  if (choice.source === 'query') writeStorage('local', LOCALE_STORAGE_KEY, choice.locale);
  return choice.locale;
}

let started: Promise<unknown> | null = null;

/** What follows the interface language outside i18next (the console's and the field app's): the page's lang, number grouping. */
export function applyLanguage(next: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  setNumberLocale(next);
}

export function initI18n(lng: Locale = initialLocale()): Promise<unknown> {
  if (started) return started;
  i18next.on('languageChanged', applyLanguage);
  started = i18next
    .use(globBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      load: 'currentOnly',
      ns: [...SHELL_NAMESPACES],
      defaultNS: 'common',
      fallbackNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  return started;
}

export function currentLocale(): Locale {
  return normaliseLocale(i18next.resolvedLanguage ?? i18next.language) ?? DEFAULT_LOCALE;
}

/** The header's language switcher: remember the choice and switch every mounted translation. */
export async function changeLocale(next: Locale): Promise<void> {
  writeStorage('local', LOCALE_STORAGE_KEY, next);
  await i18next.changeLanguage(next);
}

export { i18next };
