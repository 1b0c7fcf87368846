/**
 * i18next for the light field app: the same catalogues (src/locales, loaded through lib/i18n's glob) and the
 * same language choice as the console, but only the current language's `field` and `offline` namespaces
 * load at start — no zh-CN fallback bundles when another language is chosen (every key exists in all three
 * locales, checked before every stop). Other namespaces (`common` for the scanner, `shell` for the update
 * prompt) load when first used.
 */
import { initReactI18next } from 'react-i18next';
import { LOCALES, type Locale } from '@shared/validation';
import { applyLanguage, globBackend, i18next, initialLocale } from '@client/lib/i18n';

export const FIELD_NAMESPACES = ['field', 'offline'] as const;

export function initFieldI18n(lng: Locale = initialLocale()): Promise<unknown> {
  i18next.on('languageChanged', applyLanguage);
  return i18next
    .use(globBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: false,
      supportedLngs: [...LOCALES],
      load: 'currentOnly',
      ns: [...FIELD_NAMESPACES],
      defaultNS: 'field',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
}
