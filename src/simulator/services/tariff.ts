import { hashFloat } from '../rng';

/** Electricity tariff feed: a price per kWh that changes every 5 minutes, seeded and reproducible. */

export const TARIFF_INTERVAL_MS = 5 * 60_000;

export interface TariffQuote {
  currency: 'USD';
  unit: 'kWh';
  price: number;
  pricePerKwh: number;
  intervalMinutes: number;
  validFrom: string;
  validTo: string;
}

export function tariffAt(seed: number, atMs: number): TariffQuote {
  const bucket = Math.floor(atMs / TARIFF_INTERVAL_MS);
  const from = bucket * TARIFF_INTERVAL_MS;
  const hour = new Date(from).getUTCHours() + new Date(from).getUTCMinutes() / 60;
  // day-shaped curve: cheap at night, peak in the evening, plus seeded noise per interval
  const daily = 0.018 * Math.sin(((hour - 11) / 24) * 2 * Math.PI);
  const noise = (hashFloat(seed, bucket, 0x7a11ff) - 0.5) * 0.016;
  const spike = hashFloat(seed, bucket, 0x5b1e) > 0.97 ? 0.04 : 0;
  const price = Math.max(0.01, Math.round((0.058 + daily + noise + spike) * 10_000) / 10_000);
  return {
    currency: 'USD', unit: 'kWh', price, pricePerKwh: price, intervalMinutes: TARIFF_INTERVAL_MS / 60_000,
    validFrom: new Date(from).toISOString(), validTo: new Date(from + TARIFF_INTERVAL_MS).toISOString(),
  };
}
