/**
 * The offline collections, declared once each. Dexie stores keep only the primary key and the indexes a
 * screen queries; every other field rides along unindexed. A later feature (assets, RFID records,
 * inventory sheets and lines, repair tickets, daily reports) adds its collection with ONE entry here and
 * bumps OFFLINE_SCHEMA_VERSION when it changes a store's keys or indexes.
 *
 * `synced: true` collections are filled by the delta feed GET /api/sync/<name> (farm-scoped: every row
 * carries `agentKey`, added by the client on write).
 */
export interface OfflineCollection {
  /** Store name = the /api/sync/<name> collection for synced stores. */
  name: string;
  /** Dexie schema string: primary key first, then indexes ('[a+b]' = compound). */
  schema: string;
  synced: boolean;
}

/**
 * Bump when a store's primary key or indexes change (Dexie upgrades in place; rows of synced stores can be refetched).
 * 2: miners lost the unused [agentKey+version] index (every index is written with each of the 20,000 rows of a sync).
 */
export const OFFLINE_SCHEMA_VERSION = 2;

export const OFFLINE_COLLECTIONS = [
  // Farm-scoped caches fed by /api/sync/<name>. Key = [agentKey+id] so two farms never collide.
  { name: 'miners', schema: '[agentKey+id], [agentKey+sn], [agentKey+ip]', synced: true },
  { name: 'customers', schema: '[agentKey+id], [agentKey+name]', synced: true },
  // Client-only stores.
  /** Per (agentKey, collection): the last cursor and when the collection was last synced. */
  { name: 'syncState', schema: '[agentKey+collection]', synced: false },
  /** Offline writes waiting for the server (lib/offline/outbox.ts). id = Idempotency-Key (UUIDv7). */
  { name: 'outbox', schema: 'id, state, [state+nextAttemptAt], agentKey, created', synced: false },
  /** Miners the technician opened lately, per farm. */
  { name: 'recentMiners', schema: '[agentKey+minerId], [agentKey+openedAt]', synced: false },
] as const satisfies readonly OfflineCollection[];

export type OfflineCollectionName = (typeof OFFLINE_COLLECTIONS)[number]['name'];
