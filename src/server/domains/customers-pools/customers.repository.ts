/** Hosting customers of a farm (spec 2 §3 Customer): paged list, save, delete; options for the dropdowns. */
import { sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import type { Customer, HostingRow, SaveCustomerBody } from '@shared/schemas/customer';
import { PRICE_RULES, isCurrency } from '@shared/format/number';
import type { DB } from '../../db/kysely';
import type { StoredHostingRow } from '../../db/customers-pools-schema';
import { AppError, fieldError } from '../../errors';

interface CustomerRow {
  id: string;
  agent_key: string;
  name: string;
  contract: string;
  email: string;
  mobile: string;
  area_code: string;
  electric_unit: string;
  electric_price: string;
  hosting_result: StoredHostingRow[];
  created_at: Date;
}

const priceText = sql<string>`electric_price::text`.as('electric_price');
const COLUMNS = ['id', 'agent_key', 'name', 'contract', 'email', 'mobile', 'area_code', 'electric_unit', 'hosting_result', 'created_at'] as const;

export function toCustomer(r: CustomerRow): Customer {
  const unit = isCurrency(r.electric_unit) ? r.electric_unit : 'CNY';
  return {
    id: r.id,
    agentKey: r.agent_key,
    name: r.name,
    contract: r.contract,
    email: r.email,
    mobile: r.mobile,
    areaCode: r.area_code,
    electricUnit: unit,
    electricPrice: Number(r.electric_price).toFixed(PRICE_RULES[unit].decimals),
    createdAt: r.created_at.toISOString(),
    hostingResult: r.hosting_result.map(normaliseRow),
  };
}

export function normaliseRow(r: StoredHostingRow): HostingRow {
  return { type: r.type, coinType: r.coinType, hashRate: Number(r.hashRate), hashRateUnit: r.hashRateUnit, minerModel: r.minerModel ?? '', minerNum: Number(r.minerNum) };
}

export async function listCustomers(db: DB, agentKey: string, page: number, pageSize: number): Promise<Page<Customer>> {
  const base = db.selectFrom('customers').where('agent_key', '=', agentKey);
  const [rows, total] = await Promise.all([
    base.select([...COLUMNS, priceText]).orderBy('created_at', 'desc').orderBy('id').limit(pageSize).offset((page - 1) * pageSize).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toCustomer), total: Number(total.n), curPage: page, pageSize };
}

export async function getCustomer(db: DB, agentKey: string, id: string): Promise<Customer | null> {
  const row = await db.selectFrom('customers').select([...COLUMNS, priceText]).where('agent_key', '=', agentKey).where('id', '=', id).executeTakeFirst();
  return row ? toCustomer(row) : null;
}

export async function saveCustomer(db: DB, b: SaveCustomerBody): Promise<Customer> {
  const values = {
    name: b.name,
    contract: b.contract,
    email: b.email.join(','),
    mobile: b.mobile.join(','),
    area_code: b.areaCode.join(','),
    electric_unit: b.electricUnit,
    electric_price: b.electricPrice.trim(),
    hosting_result: JSON.stringify(b.hostingResult),
  };
  const row = b.id
    ? await db
        .updateTable('customers')
        .set({ ...values, updated_at: new Date() })
        .where('id', '=', b.id)
        .where('agent_key', '=', b.agentKey)
        .returning([...COLUMNS, priceText])
        .executeTakeFirst()
    : await db
        .insertInto('customers')
        .values({ ...values, agent_key: b.agentKey })
        .returning([...COLUMNS, priceText])
        .executeTakeFirst();
  if (!row) throw new AppError('notFound');
  return toCustomer(row);
}

/** Deletes a customer of the farm; one still named by a pool group is refused (409). */
export async function deleteCustomer(db: DB, agentKey: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const used = await trx.selectFrom('pool_groups').select('id').where('agent_key', '=', agentKey).where('customer_id', '=', id).limit(1).executeTakeFirst();
    if (used) throw fieldError('id', 'validation.customerInUse', 'conflict');
    const res = await trx.deleteFrom('customers').where('agent_key', '=', agentKey).where('id', '=', id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw new AppError('notFound');
  });
}

export async function customerOptions(db: DB, agentKey: string): Promise<{ text: string; value: string }[]> {
  const rows = await db.selectFrom('customers').select(['id', 'name']).where('agent_key', '=', agentKey).orderBy('name').orderBy('id').execute();
  return rows.map((r) => ({ text: r.name, value: r.id }));
}
