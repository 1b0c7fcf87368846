/**
 * Hashrate display: picks a readable unit and adds thousands separators. Pure and isomorphic.
 */
import { autoHashrate, toGhs } from '../units';
import { EMPTY_NUMBER, formatNumber, toFiniteNumber } from './number';

/**
 * formatHashrate(110000) → '110.00 TH/s'; formatHashrate(95, 'TH/s', 1) → '95.0 TH/s';
 * formatHashrate(0) → '0.00 GH/s'. The value is given in `unit` (default GH/s).
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
