import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type MinerLabelKind, minerLabel } from '@shared/miner-labels';
import { DEFAULT_LOCALE, normaliseLocale } from '@shared/validation';

/** Names of miner states and fault labels in the interface language (shared catalogue). */
export function useLabels(): (kind: MinerLabelKind, value: string) => string {
  const { i18n } = useTranslation();
  const locale = normaliseLocale(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LOCALE;
  return useCallback((kind: MinerLabelKind, value: string) => minerLabel(locale, kind, value), [locale]);
}
