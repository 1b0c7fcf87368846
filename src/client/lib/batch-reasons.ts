/**
 * A batch failure's reason as the agent or the server writes it — a stable code, maybe ": detail" after it
 * ('unreachable: timeout', 'offline') — in the reader's language (namespace miners, batch.reasons.<code>). Shared by the
 * miner list's batch progress and the pages that start batches of their own (reboot by range on /alarm/security).
 */
import { useTranslation } from 'react-i18next';

/** The code and the detail, each trimmed: 'unreachable: timeout' is { code: 'unreachable', detail: 'timeout' }. */
export function splitReason(reason: string): { code: string; detail: string } {
  const i = reason.indexOf(':');
  return i < 0 ? { code: reason.trim(), detail: '' } : { code: reason.slice(0, i).trim(), detail: reason.slice(i + 1).trim() };
}

export function useReasonLabel(): (reason: string) => string {
  const { t, i18n } = useTranslation('miners');
  return (reason: string) => {
    const { code, detail } = splitReason(reason);
    const key = `batch.reasons.${code}`;
    const label = i18n.exists(key, { ns: 'miners' }) ? t(key) : code || t('batch.reasons.unknown');
    return detail ? `${label}: ${detail}` : label;
  };
}
