import { describe, expect, it } from 'vitest';
import { EMPTY_NUMBER, PRICE_RULES, formatNumber, formatPrice, isCurrency, priceUnit, setNumberLocale, toFiniteNumber } from './number';

describe('formatNumber', () => {
  it('groups thousands with a no-break space in Russian ("5,928" reads as 5.928 there), keeping the decimal point', () => {
    try {
      setNumberLocale('ru');
      expect(formatNumber(5928)).toBe('5\u00a0928');
      expect(formatNumber(1234567.891, 2)).toBe('1\u00a0234\u00a0567.89');
      expect(formatNumber(-0.001, 2)).toBe('0.00');
      setNumberLocale('zh-CN');
      expect(formatNumber(5928)).toBe('5,928');
    } finally {
      setNumberLocale('en-US');
    }
    expect(formatNumber(1234567.891, 2)).toBe('1,234,567.89');
  });

  it('adds thousands separators and keeps own decimals', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatNumber(1234567.891)).toBe('1,234,567.891');
    expect(formatNumber(-9876543)).toBe('-9,876,543');
    expect(formatNumber(0.1 + 0.2)).toBe('0.30000000000000004');
  });

  it('rounds to fixed decimals', () => {
    expect(formatNumber(1234.5, 2)).toBe('1,234.50');
    expect(formatNumber(1.005, 2)).toBe('1.01');
    expect(formatNumber(2.5, 0)).toBe('3');
    expect(formatNumber(-2.5, 0)).toBe('-3');
    expect(formatNumber(1999999.996, 2)).toBe('2,000,000.00');
    expect(formatNumber(12, 3.7)).toBe('12.000');
  });

  it('never shows negative zero', () => {
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(-0.001, 2)).toBe('0.00');
  });

  it('reads numeric strings and rejects the rest', () => {
    expect(formatNumber('1234567')).toBe('1,234,567');
    expect(formatNumber(' 42.5 ', 1)).toBe('42.5');
    expect(formatNumber('abc')).toBe(EMPTY_NUMBER);
    expect(formatNumber('')).toBe(EMPTY_NUMBER);
    expect(formatNumber(null)).toBe(EMPTY_NUMBER);
    expect(formatNumber(undefined)).toBe(EMPTY_NUMBER);
    expect(formatNumber(Number.NaN)).toBe(EMPTY_NUMBER);
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe(EMPTY_NUMBER);
    expect(toFiniteNumber('1e3')).toBe(1000);
  });

  it('handles very large and very small numbers without exponent notation', () => {
    expect(formatNumber(1e21)).toBe('1,000,000,000,000,000,000,000');
    expect(formatNumber(1.5e-7)).toBe('0.00000015');
  });
});

describe('formatPrice', () => {
  it('shows USD with 4 decimals per kwh', () => {
    expect(formatPrice(0.05, 'USD')).toBe('0.0500 $/kwh');
    expect(formatPrice(0.00005, 'USD')).toBe('0.0001 $/kwh');
    expect(formatPrice('0.0612', 'USD')).toBe('0.0612 $/kwh');
  });

  it('shows CNY with 2 decimals per kwh', () => {
    expect(formatPrice(0.355, 'CNY')).toBe('0.36 ¥/kwh');
    expect(formatPrice(1234.5, 'CNY')).toBe('1,234.50 ¥/kwh');
    expect(formatPrice(0.4, 'CNY', { withUnit: false })).toBe('0.40');
  });

  it('gives - for missing values', () => {
    expect(formatPrice(null, 'CNY')).toBe(EMPTY_NUMBER);
    expect(formatPrice('x', 'USD')).toBe(EMPTY_NUMBER);
  });

  it('exposes the price rules', () => {
    expect(PRICE_RULES.USD).toMatchObject({ decimals: 4, min: 0.0001, step: 0.0001 });
    expect(PRICE_RULES.CNY).toMatchObject({ decimals: 2, min: 0.01, step: 0.01 });
    expect(priceUnit('USD')).toBe('$/kwh');
    expect(priceUnit('CNY')).toBe('¥/kwh');
    expect(isCurrency('USD')).toBe(true);
    expect(isCurrency('EUR')).toBe(false);
  });
});
