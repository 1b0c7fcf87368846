/** Customer rows of the sync feed (CustomerSyncRow): id and name, for the change-of-customer picker offline. */
import { sql } from 'kysely';
import type { CustomerSyncRow } from '@shared/schemas/sync';
import type { SyncField, SyncSource } from './sync-feed';

const CUSTOMER_FIELDS: readonly SyncField<keyof CustomerSyncRow>[] = [
  ['id', sql`c.id::text`],
  ['name', sql`c.name`],
  ['version', sql`c.version::text`],
];

export const customerSyncSource: SyncSource = {
  fields: CUSTOMER_FIELDS,
  version: sql`c.version`,
  from: (q) => sql`
    from customers c
    where c.agent_key = ${q.agentKey} and c.version > ${q.since}::bigint and c.version <= ${q.upTo}::bigint
    order by c.version
    limit ${q.take}`,
};
