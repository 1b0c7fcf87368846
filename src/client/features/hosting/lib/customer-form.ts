/** Row helpers of the customer dialog (spec 2 §4): a new hosting row, and a row whose model type changed. */
import { type Currency, PRICE_RULES, priceUnit } from '@shared/format/number';
import { type CustomerFormValues, decimalsOf } from '@shared/schemas/customer';

export type HostingFormRow = CustomerFormValues['hostingResult'][number];

export function emptyHostingRow(): HostingFormRow {
  return { type: '', coinType: '', hashRate: '', hashRateUnit: 'TH/s', minerModel: '', minerNum: '' };
}

/** Changing the model type of a row clears its coinType and hashRate; minerModel follows the type. */
export function withTypeChanged(row: HostingFormRow, type: string): HostingFormRow {
  if (type === row.type) return row;
  return { ...row, type, minerModel: type, coinType: '', hashRate: '' };
}

/** "¥/kwh" or "$/kwh" after a price. */
export function priceLabel(price: string, unit: Currency): string {
  return `${price} ${priceUnit(unit)}`;
}

/**
 * The price kept when the currency changes: rounded to the new currency's decimals (USD 4, CNY 2), so the field
 * shows what is saved; a blank or non-numeric price is left for the validation message.
 */
export function priceForCurrency(price: string, unit: Currency): string {
  const text = price.trim();
  const decimals = PRICE_RULES[unit].decimals;
  if (!/^\d+(\.\d+)?$/.test(text) || decimalsOf(text) <= decimals) return price;
  return Number(text).toFixed(decimals);
}
