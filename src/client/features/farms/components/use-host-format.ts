import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@shared/format/number';
import { mbToGb, splitUptime } from '../lib/host-format';

export function useHostFormat() {
  const { t } = useTranslation('farms');
  return useMemo(() => ({
    gb: (mb: number | null) => {
      const v = mbToGb(mb);
      return v === null ? '-' : t('host.gb', { value: formatNumber(v) });
    },
    uptime: (sec: number | null) => {
      if (sec === null) return '-';
      const d = splitUptime(sec);
      return d.days > 0 ? t('host.uptimeValue', { ...d }) : t('host.uptimeShort', { ...d });
    },
  }), [t]);
}
