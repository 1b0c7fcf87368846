/** Display helpers of miner values (pure): uptime, temperatures, fans, firmware date. */
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';

export interface DurationParts {
  d: number;
  h: number;
  m: number;
}

export function durationParts(seconds: number): DurationParts {
  const s = Math.max(0, Math.floor(seconds));
  return { d: Math.floor(s / 86_400), h: Math.floor((s % 86_400) / 3600), m: Math.floor((s % 3600) / 60) };
}

export function formatTemp(v: number | null | undefined): string {
  return v === null || v === undefined ? '-' : `${formatNumber(v, 1)} °C`;
}

export function formatFans(fans: readonly number[]): string {
  return fans.length ? fans.map((f) => formatNumber(f, 0)).join(' / ') : '-';
}

export function formatPercent(v: number | null | undefined, decimals = 1): string {
  return v === null || v === undefined ? '-' : `${formatNumber(v, decimals)}%`;
}

/** The firmware column: the build date (YYYY-MM-DD, local) where known, else the version string. */
export function firmwareText(compileTime: string | null, firmwareVersion: string): string {
  return compileTime ? formatDate(compileTime, 'YYYY-MM-DD') : firmwareVersion || '-';
}

/** What a live figure (real-time / 30-minute hashrate, hashrate %) shows for a miner that is offline. */
export const NO_LIVE_READING = '—';

/**
 * A live figure of a miner: its text while the miner is online, `NO_LIVE_READING` while it is offline (its last
 * reading would read as if it were hashing now).
 */
export function liveFigure(online: boolean, text: string): string {
  return online ? text : NO_LIVE_READING;
}
