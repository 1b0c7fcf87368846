/** Customer rows of the sync feed (CustomerSyncRow): id and name, for the change-of-customer picker offline. */
import { sql } from 'kysely';
import type { CustomerSyncRow } from '@shared/schemas/sync';
import type { DB } from '../../db/kysely';

export async function readCustomerSyncRows(db: DB, agentKey: string, since: string, upTo: string, take: number): Promise<CustomerSyncRow[]> {
  const { rows } = await sql<CustomerSyncRow>`
    select c.id, c.name, c.version::text as version
    from customers c
    where c.agent_key = ${agentKey} and c.version > ${since}::bigint and c.version <= ${upTo}::bigint
    order by c.version
    limit ${take}
  `.execute(db);
  return rows;
}
