import { describe, expect, it } from 'vitest';
import { type CustomerFormValues, customerFormToBody, customerToForm, validateCustomerForm } from '@shared/schemas/customer';
import { emptyHostingRow, priceForCurrency, priceLabel, withTypeChanged } from './customer-form';

const valid = (): CustomerFormValues => ({
  name: 'Acme',
  contract: 'Li Wei',
  contacts: [{ kind: 'mobile', value: '13800138000', areaCode: '86' }],
  electricUnit: 'CNY',
  electricPrice: '0.35',
  hostingResult: [{ type: 'Antminer S21', coinType: 'BTC', hashRate: '200', hashRateUnit: 'TH/s', minerModel: 'Antminer S21', minerNum: '10' }],
});

describe('customer dialog rules (spec 2 §5)', () => {
  it('accepts a complete customer', () => {
    expect(validateCustomerForm(valid())).toEqual({});
  });

  it('requires name and contact person, at most 50 characters', () => {
    expect(validateCustomerForm({ ...valid(), name: ' ', contract: '' })).toMatchObject({ name: 'validation.customerNameRequired', contract: 'validation.contactNameRequired' });
    expect(validateCustomerForm({ ...valid(), name: 'x'.repeat(51), contract: 'y'.repeat(51) })).toMatchObject({ name: 'validation.customerNameMax', contract: 'validation.contactNameMax' });
  });

  it('checks the first and the optional second contact as email or mobile', () => {
    expect(validateCustomerForm({ ...valid(), contacts: [{ kind: 'mobile', value: '', areaCode: '86' }] })).toEqual({ 'contacts.0.value': 'validation.contactRequired' });
    expect(validateCustomerForm({ ...valid(), contacts: [{ kind: 'mobile', value: '123456', areaCode: '86' }] })).toEqual({ 'contacts.0.value': 'validation.mobile' });
    expect(validateCustomerForm({ ...valid(), contacts: [{ kind: 'mobile', value: '123456789012', areaCode: '86' }] })).toEqual({ 'contacts.0.value': 'validation.mobile' });
    expect(validateCustomerForm({ ...valid(), contacts: [{ kind: 'email', value: 'a@b', areaCode: '86' }] })).toEqual({ 'contacts.0.value': 'validation.email' });
    const two = { ...valid(), contacts: [...valid().contacts, { kind: 'email' as const, value: 'nope', areaCode: '86' }] };
    expect(validateCustomerForm(two)).toEqual({ 'contacts.1.value': 'validation.email' });
  });

  it('applies the price rule of the currency', () => {
    expect(validateCustomerForm({ ...valid(), electricPrice: '' })).toEqual({ electricPrice: 'validation.priceRequired' });
    expect(validateCustomerForm({ ...valid(), electricPrice: '0.009' })).toEqual({ electricPrice: 'validation.priceMinCny' });
    expect(validateCustomerForm({ ...valid(), electricPrice: '0.125' })).toEqual({ electricPrice: 'validation.priceDecimalsCny' });
    expect(validateCustomerForm({ ...valid(), electricUnit: 'USD', electricPrice: '0.00005' })).toEqual({ electricPrice: 'validation.priceMinUsd' });
    expect(validateCustomerForm({ ...valid(), electricUnit: 'USD', electricPrice: '0.12345' })).toEqual({ electricPrice: 'validation.priceDecimalsUsd' });
    expect(validateCustomerForm({ ...valid(), electricUnit: 'USD', electricPrice: '0.0001' })).toEqual({});
    expect(priceLabel('0.35', 'CNY')).toBe('0.35 ¥/kwh');
    expect(priceLabel('0.0525', 'USD')).toBe('0.0525 $/kwh');
  });

  it('rounds the price to the new currency\'s decimals when the currency changes', () => {
    expect(priceForCurrency('0.0525', 'CNY')).toBe('0.05');
    expect(priceForCurrency('0.35', 'USD')).toBe('0.35');
    expect(priceForCurrency('0.35', 'CNY')).toBe('0.35');
    expect(priceForCurrency('', 'CNY')).toBe('');
  });

  it('checks every hosting row and keeps at least one', () => {
    expect(validateCustomerForm({ ...valid(), hostingResult: [] })).toEqual({ hostingResult: 'validation.hostingAtLeastOne' });
    expect(validateCustomerForm({ ...valid(), hostingResult: [emptyHostingRow()] })).toEqual({
      'hostingResult.0.type': 'validation.hostingType',
      'hostingResult.0.coinType': 'validation.chooseCoin',
      'hostingResult.0.hashRate': 'validation.hashRateRequired',
      'hostingResult.0.minerNum': 'validation.minerNum',
    });
    const row = valid().hostingResult[0]!;
    expect(validateCustomerForm({ ...valid(), hostingResult: [{ ...row, minerNum: '2.5' }] })).toEqual({ 'hostingResult.0.minerNum': 'validation.minerNum' });
    expect(validateCustomerForm({ ...valid(), hostingResult: [{ ...row, minerNum: '0' }] })).toEqual({});
  });

  it('changing the model type of a row clears its coin and hashrate', () => {
    const row = valid().hostingResult[0]!;
    expect(withTypeChanged(row, 'Antminer T21')).toEqual({ ...row, type: 'Antminer T21', minerModel: 'Antminer T21', coinType: '', hashRate: '' });
    expect(withTypeChanged(row, row.type)).toBe(row);
  });

  it('sends contacts comma-joined with area codes aligned to the mobiles, and reads them back', () => {
    const v = { ...valid(), contacts: [{ kind: 'email' as const, value: ' ops@acme.example ', areaCode: '86' }, { kind: 'mobile' as const, value: '9161234567', areaCode: '7' }] };
    const b = customerFormToBody(v);
    expect(b).toMatchObject({ email: 'ops@acme.example', mobile: '9161234567', areaCode: '7', electricUnit: 'CNY', electricPrice: '0.35' });
    expect(JSON.parse(b.hostingResult ?? '[]')).toEqual([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'Antminer S21', minerNum: 10 }]);
    expect(customerToForm(undefined).contacts).toEqual([{ kind: 'mobile', value: '', areaCode: '86' }]);
  });
});
