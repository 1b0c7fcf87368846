/**
 * Which interface language to use (spec 1 §1): the `i18n` query value, else the locally stored choice,
 * else the browser language, else the default (zh-CN). Pure so it can be tested without a browser.
 */
import { DEFAULT_LOCALE, normaliseLocale, type Locale } from '@shared/validation';

export const LOCALE_STORAGE_KEY = 'hf.locale';
export const LOCALE_QUERY_PARAM = 'i18n';

export interface LocaleSources {
  /** `location.search` (with or without the leading "?"). */
  search?: string | null;
  /** The stored choice (localStorage). */
  stored?: string | null;
  /** navigator.languages (first match wins), or navigator.language. */
  browser?: readonly string[] | null;
}

export interface LocaleChoice {
  locale: Locale;
  source: 'query' | 'stored' | 'browser' | 'default';
}

export function chooseLocale(sources: LocaleSources): LocaleChoice {
  const query = sources.search ? new URLSearchParams(sources.search).get(LOCALE_QUERY_PARAM) : null;
  const fromQuery = normaliseLocale(query);
  if (fromQuery) return { locale: fromQuery, source: 'query' };
  const fromStored = normaliseLocale(sources.stored);
  if (fromStored) return { locale: fromStored, source: 'stored' };
  for (const lang of sources.browser ?? []) {
    const fromBrowser = normaliseLocale(lang);
    if (fromBrowser) return { locale: fromBrowser, source: 'browser' };
  }
  return { locale: DEFAULT_LOCALE, source: 'default' };
}
