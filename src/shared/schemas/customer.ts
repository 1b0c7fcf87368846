/**
 * Hosting customers (spec 2 §3, §5, §7): request schemas shared by the server routes and the customer dialog.
 * Contacts travel comma-joined (email, mobile, areaCode aligned with the mobiles); hostingResult is a JSON
 * array (a JSON string in form bodies). Messages are i18n keys of namespace `errors`.
 */
import { z } from 'zod';
import { CURRENCIES, type Currency, PRICE_RULES } from '../format/number';
import { findMenuByKey } from '../menu-catalogue';
import { HASHRATE_UNITS } from '../units';
import { EMAIL_RE, LIMITS, MOBILE_RE } from '../validation';

const menu = findMenuByKey('customers');
/** Catalogue entry customers: 61000 to see, 61500 to change. */
export const CUSTOMER_PERMISSION = { view: menu?.permission ?? 61_000, operate: menu?.operation ?? 61_500 } as const;

/** Contacts of one customer: a first (required) and an optional second (spec 2 §4). */
export const MAX_CONTACTS = 2;
export const HOSTING_ROWS_MAX = 50;

export interface HostingRow {
  type: string;
  coinType: string;
  hashRate: number;
  hashRateUnit: string;
  minerModel: string;
  minerNum: number;
}

export interface Customer {
  id: string;
  agentKey: string;
  name: string;
  contract: string;
  email: string;
  mobile: string;
  areaCode: string;
  electricUnit: Currency;
  /** Decimal string. */
  electricPrice: string;
  createdAt: string;
  hostingResult: HostingRow[];
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string) => UUID_RE.test(v);

const blankToUndef = (v: unknown) => (v === '' || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
/** A number from a number or numeric text; blank is missing. */
export const numberField = (message: string) =>
  z.preprocess((v) => {
    const b = blankToUndef(v);
    return typeof b === 'string' ? Number(b.trim()) : b;
  }, z.number(message).finite(message));

export const optionalId = z.preprocess(blankToUndef, z.string().regex(UUID_RE, 'validation.id').optional());
export const requiredId = (message: string) => z.preprocess(blankToUndef, z.string(message).regex(UUID_RE, message));
export const agentKeyField = z.string().trim().min(1, 'validation.agentKeyRequired').max(64);

/** A JSON array sent as a string (form bodies) or as an array (JSON bodies). */
export const jsonArray = <T extends z.ZodType>(item: T, emptyMessage: string) =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v ?? [];
      if (v.trim() === '') return [];
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    },
    z.array(item, 'validation.invalid').min(1, emptyMessage).max(HOSTING_ROWS_MAX, 'validation.invalid'),
  );

export const HostingRowSchema = z.object({
  type: z.string('validation.hostingType').trim().min(1, 'validation.hostingType').max(100, 'validation.hostingType'),
  coinType: z.string('validation.chooseCoin').trim().min(1, 'validation.chooseCoin').max(20, 'validation.chooseCoin'),
  hashRate: numberField('validation.hashRateRequired').pipe(z.number().positive('validation.hashRateRequired')),
  hashRateUnit: z.preprocess(blankToUndef, z.enum(HASHRATE_UNITS, 'validation.invalid').default('TH/s')),
  minerModel: z.preprocess((v) => v ?? '', z.string().trim().max(100, 'validation.invalid')),
  minerNum: numberField('validation.minerNum').pipe(z.number().int('validation.minerNum').min(0, 'validation.minerNum').max(1_000_000, 'validation.minerNum')),
});

/** Number of decimals written in a decimal text ("0.125" → 3). */
export function decimalsOf(text: string): number {
  const m = /\.(\d+)$/.exec(text.trim());
  return m?.[1]?.length ?? 0;
}

/** Electricity price rule of spec 2 §5 as an `errors:` key, or null when the price is fine for the currency. */
export function priceProblem(price: string, unit: Currency): string | null {
  const text = price.trim();
  if (text === '') return 'validation.priceRequired';
  if (!/^\d+(\.\d+)?$/.test(text)) return 'validation.priceRequired';
  const rule = PRICE_RULES[unit];
  if (Number(text) < rule.min) return unit === 'USD' ? 'validation.priceMinUsd' : 'validation.priceMinCny';
  if (decimalsOf(text) > rule.decimals) return unit === 'USD' ? 'validation.priceDecimalsUsd' : 'validation.priceDecimalsCny';
  if (Number(text) >= 1e8) return 'validation.priceRequired';
  return null;
}

const splitList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Body of POST /api/customer/save: creates without id, edits with it. */
export const SaveCustomerBody = z
  .object({
    agentKey: agentKeyField,
    id: optionalId,
    name: z.string('validation.customerNameRequired').trim().min(1, 'validation.customerNameRequired').max(LIMITS.customerNameMax, 'validation.customerNameMax'),
    contract: z.string('validation.contactNameRequired').trim().min(1, 'validation.contactNameRequired').max(LIMITS.customerNameMax, 'validation.contactNameMax'),
    email: z.preprocess((v) => v ?? '', z.string()).transform(splitList),
    mobile: z.preprocess((v) => v ?? '', z.string()).transform(splitList),
    areaCode: z.preprocess((v) => v ?? '', z.string()).transform(splitList),
    electricUnit: z.enum(CURRENCIES, 'validation.currency'),
    electricPrice: z.preprocess((v) => (typeof v === 'number' ? String(v) : (v ?? '')), z.string()),
    hostingResult: jsonArray(HostingRowSchema, 'validation.hostingAtLeastOne'),
  })
  .superRefine((v, ctx) => {
    const contacts = v.email.length + v.mobile.length;
    if (contacts === 0) ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.contactRequired' });
    if (contacts > MAX_CONTACTS) ctx.addIssue({ code: 'custom', path: ['mobile'], message: 'validation.contactMax' });
    if (v.email.some((e) => !EMAIL_RE.test(e))) ctx.addIssue({ code: 'custom', path: ['email'], message: 'validation.email' });
    if (v.mobile.some((m) => !MOBILE_RE.test(m))) ctx.addIssue({ code: 'custom', path: ['mobile'], message: 'validation.mobile' });
    if (v.areaCode.length > 0 && v.areaCode.length !== v.mobile.length) ctx.addIssue({ code: 'custom', path: ['areaCode'], message: 'validation.areaCode' });
    if (v.areaCode.some((a) => !/^\d{1,4}$/.test(a))) ctx.addIssue({ code: 'custom', path: ['areaCode'], message: 'validation.areaCode' });
    const price = priceProblem(v.electricPrice, v.electricUnit);
    if (price) ctx.addIssue({ code: 'custom', path: ['electricPrice'], message: price });
  })
  .transform((v) => ({ ...v, areaCode: v.mobile.map((_, i) => v.areaCode[i] ?? LIMITS.defaultAreaCode) }));
export type SaveCustomerBody = z.output<typeof SaveCustomerBody>;

export const DeleteCustomerBody = z.object({ agentKey: agentKeyField, id: requiredId('validation.id') });

/** One contact of the dialog: its kind, the address or number, and (for a mobile) the area code. */
export interface ContactInput {
  kind: 'email' | 'mobile';
  value: string;
  areaCode: string;
}

/** The dialog's values (spec 2 §4, §5). */
export interface CustomerFormValues {
  name: string;
  contract: string;
  contacts: ContactInput[];
  electricUnit: Currency;
  electricPrice: string;
  hostingResult: { type: string; coinType: string; hashRate: string; hashRateUnit: string; minerModel: string; minerNum: string }[];
}

/** Field → `errors:` key of the dialog's values; paths as @mantine/form names them ("contacts.0.value"). */
export function validateCustomerForm(v: CustomerFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const put = (path: string, key: string) => {
    errors[path] ??= key;
  };
  const name = v.name.trim();
  if (name === '') put('name', 'validation.customerNameRequired');
  else if (name.length > LIMITS.customerNameMax) put('name', 'validation.customerNameMax');
  const contract = v.contract.trim();
  if (contract === '') put('contract', 'validation.contactNameRequired');
  else if (contract.length > LIMITS.customerNameMax) put('contract', 'validation.contactNameMax');
  v.contacts.forEach((c, i) => {
    const value = c.value.trim();
    if (value === '') put(`contacts.${i}.value`, i === 0 ? 'validation.contactRequired' : c.kind === 'email' ? 'validation.email' : 'validation.mobile');
    else if (c.kind === 'email' && !EMAIL_RE.test(value)) put(`contacts.${i}.value`, 'validation.email');
    else if (c.kind === 'mobile' && !MOBILE_RE.test(value)) put(`contacts.${i}.value`, 'validation.mobile');
  });
  if (v.contacts.length === 0) put('contacts', 'validation.contactRequired');
  const price = priceProblem(v.electricPrice, v.electricUnit);
  if (price) put('electricPrice', price);
  if (v.hostingResult.length === 0) put('hostingResult', 'validation.hostingAtLeastOne');
  v.hostingResult.forEach((row, i) => {
    const parsed = HostingRowSchema.safeParse(row);
    if (!parsed.success) for (const issue of parsed.error.issues) put(`hostingResult.${i}.${String(issue.path[0])}`, issue.message);
  });
  return errors;
}

/** The dialog's values as the save body (comma-joined contacts, hostingResult as JSON text). */
export function customerFormToBody(v: CustomerFormValues): Record<string, string> {
  const emails = v.contacts.filter((c) => c.kind === 'email').map((c) => c.value.trim());
  const mobiles = v.contacts.filter((c) => c.kind === 'mobile');
  return {
    name: v.name.trim(),
    contract: v.contract.trim(),
    email: emails.join(','),
    mobile: mobiles.map((c) => c.value.trim()).join(','),
    areaCode: mobiles.map((c) => c.areaCode || LIMITS.defaultAreaCode).join(','),
    electricUnit: v.electricUnit,
    electricPrice: v.electricPrice.trim(),
    hostingResult: JSON.stringify(
      v.hostingResult.map((r) => ({ type: r.type, coinType: r.coinType, hashRate: Number(r.hashRate), hashRateUnit: r.hashRateUnit, minerModel: r.minerModel, minerNum: Number(r.minerNum) })),
    ),
  };
}

/** A saved customer as the dialog's values (contacts: the e-mails first, then the mobiles). */
export function customerToForm(c: Customer | undefined): CustomerFormValues {
  if (!c)
    return {
      name: '',
      contract: '',
      contacts: [{ kind: 'mobile', value: '', areaCode: LIMITS.defaultAreaCode }],
      electricUnit: 'CNY',
      electricPrice: '',
      hostingResult: [{ type: '', coinType: '', hashRate: '', hashRateUnit: 'TH/s', minerModel: '', minerNum: '' }],
    };
  const areaCodes = splitList(c.areaCode);
  const contacts: ContactInput[] = [
    ...splitList(c.email).map((e): ContactInput => ({ kind: 'email', value: e, areaCode: LIMITS.defaultAreaCode })),
    ...splitList(c.mobile).map((m, i): ContactInput => ({ kind: 'mobile', value: m, areaCode: areaCodes[i] ?? LIMITS.defaultAreaCode })),
  ];
  return {
    name: c.name,
    contract: c.contract,
    contacts: contacts.length ? contacts : [{ kind: 'mobile', value: '', areaCode: LIMITS.defaultAreaCode }],
    electricUnit: c.electricUnit,
    electricPrice: c.electricPrice,
    hostingResult: c.hostingResult.map((r) => ({ ...r, hashRate: String(r.hashRate), minerNum: String(r.minerNum) })),
  };
}
