/**
 * Number and money display (spec 1 §9 thousands separators; spec 2 §5, §9 electricity prices).
 * Pure and isomorphic. The decimal mark is '.' whatever the UI language (as the inputs take it); thousands are
 * grouped with ',' except in Russian, where "5,928" reads as 5.928: there a no-break space ("5 928"). The client sets
 * the language (setNumberLocale) when the interface language changes; the server formats with ','.
 */

/** Shown for a missing or non-numeric value. */
export const EMPTY_NUMBER = '-';

const formatters = new Map<string, Intl.NumberFormat>();

/** The thousands separator of the interface language (see above). */
let groupSeparator = ',';

/** Sets the thousands separator for a language tag: a no-break space for Russian, ',' otherwise. */
export function setNumberLocale(locale: string): void {
  groupSeparator = locale.toLowerCase().startsWith('ru') ? '\u00a0' : ',';
}

function formatter(minDecimals: number, maxDecimals: number): Intl.NumberFormat {
  const id = `${minDecimals}:${maxDecimals}`;
  let fmt = formatters.get(id);
  if (!fmt) {
    fmt = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: minDecimals,
      maximumFractionDigits: maxDecimals,
      useGrouping: true,
    });
    formatters.set(id, fmt);
  }
  return fmt;
}

/** Reads a number from a number or numeric string ('1234.5', ' 42 '); null otherwise. */
export function toFiniteNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value.trim());
  return Number.isFinite(n) ? n : null;
}

/**
 * Formats a number with thousands separators: formatNumber(1234567.891) → '1,234,567.891';
 * formatNumber(1234.5, 2) → '1,234.50' (rounded half away from zero on the shortest decimal form,
 * so 1.005 → '1.01'). Without `decimals` the number keeps its own decimals (up to 20).
 * Null, undefined, NaN or non-numeric text give '-'. A result that rounds to zero never shows '-0'.
 */
export function formatNumber(value: number | string | null | undefined, decimals?: number): string {
  const n = toFiniteNumber(value);
  if (n === null) return EMPTY_NUMBER;
  const d = decimals === undefined ? undefined : Math.min(20, Math.max(0, Math.trunc(decimals)));
  const raw = d === undefined ? formatter(0, 20).format(n) : formatter(d, d).format(n);
  const text = /^-[0,.]*$/.test(raw) ? raw.slice(1) : raw;
  return groupSeparator === ',' ? text : text.replace(/,/g, groupSeparator);
}

/** Currencies of electricity prices. */
export const CURRENCIES = ['USD', 'CNY'] as const;
export type Currency = (typeof CURRENCIES)[number];

export interface PriceRule {
  /** Decimals shown and accepted. */
  decimals: number;
  /** Smallest accepted price and input step. */
  min: number;
  step: number;
  /** Currency symbol. */
  symbol: string;
  /** Unit label shown after the price. */
  unit: string;
}

/** Electricity price rules of spec 2 §5: USD min/step 0.0001, 4 decimals; CNY min/step 0.01, 2 decimals. */
export const PRICE_RULES: Readonly<Record<Currency, PriceRule>> = {
  USD: { decimals: 4, min: 0.0001, step: 0.0001, symbol: '$', unit: '$/kwh' },
  CNY: { decimals: 2, min: 0.01, step: 0.01, symbol: '¥', unit: '¥/kwh' },
};

export function isCurrency(value: unknown): value is Currency {
  return value === 'USD' || value === 'CNY';
}

/** '$/kwh' for USD, '¥/kwh' for CNY. */
export function priceUnit(currency: Currency): string {
  return PRICE_RULES[currency].unit;
}

/**
 * Electricity price display: formatPrice(0.05, 'USD') → '0.0500 $/kwh';
 * formatPrice(1234.5, 'CNY') → '1,234.50 ¥/kwh'. Missing values give '-'.
 * Pass `{ withUnit: false }` for the bare number.
 */
export function formatPrice(
  value: number | string | null | undefined,
  currency: Currency,
  options: { withUnit?: boolean } = {},
): string {
  const rule = PRICE_RULES[currency];
  const text = formatNumber(value, rule.decimals);
  if (text === EMPTY_NUMBER || options.withUnit === false) return text;
  return `${text} ${rule.unit}`;
}
