/**
 * Hashrate display: picks a readable unit and adds thousands separators. Pure and isomorphic.
 */
import { autoHashrate, convertHashrate, toGhs } from '../units';
import { EMPTY_NUMBER, formatNumber, toFiniteNumber } from './number';

/**
 * formatHashrate(110000) → '110.00 TH/s'; formatHashrate(95, 'TH/s', 1) → '95.0 TH/s';
 * formatHashrate(0) → '0.00 TH/s' (a zero reads in the unit miners are rated in). The value is given in `unit` (default GH/s).
 * Missing values give '-'; an unsupported unit is logged by toGhs and gives '-'.
 */
export function formatHashrate(value: number | string | null | undefined, unit = 'GH/s', decimals = 2): string {
  const n = toFiniteNumber(value);
  if (n === null) return EMPTY_NUMBER;
  const ghs = toGhs(n, unit);
  if (ghs === null) return EMPTY_NUMBER;
  const auto = autoHashrate(ghs);
  return `${formatNumber(auto.value, decimals)} ${auto.unit}`;
}

/**
 * A chart axis' tick labels (values in GH/s) in one unit, the one the largest tick reads best in:
 * [0, 50_000, 100_000] → ['0 TH/s', '50 TH/s', '100 TH/s'] (per-value formatting would give '0.00 GH/s' at the
 * bottom of a TH/s axis). Decimals only as many as the ticks need (at most `maxDecimals`).
 */
export function formatHashrateTicks(ghs: readonly number[], maxDecimals = 2): string[] {
  const top = ghs.reduce((m, v) => (Number.isFinite(v) ? Math.max(m, Math.abs(v)) : m), 0);
  const { unit } = autoHashrate(top);
  const values = ghs.map((v) => (Number.isFinite(v) ? (convertHashrate(v, 'GH/s', unit) ?? 0) : 0));
  let decimals = 0;
  while (decimals < maxDecimals && values.some((v) => Math.abs(v * 10 ** decimals - Math.round(v * 10 ** decimals)) > 1e-6)) decimals++;
  return values.map((v) => `${formatNumber(v, decimals)} ${unit}`);
}
