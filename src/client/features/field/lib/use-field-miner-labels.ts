import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type MinerLabelKind, minerLabel } from '@shared/miner-labels';
import { DEFAULT_LOCALE, type Locale, normaliseLocale } from '@shared/validation';

/** Names of miner states and fault labels in the interface language (the shared catalogue the console uses). */
export function useFieldLabels(): { locale: Locale; label: (kind: MinerLabelKind, value: string) => string } {
  const { i18n } = useTranslation();
  const locale = normaliseLocale(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LOCALE;
  const label = useCallback((kind: MinerLabelKind, value: string) => minerLabel(locale, kind, value), [locale]);
  return { locale, label };
}
