/**
 * The offline collections, declared once each. Dexie stores keep only the primary key and the indexes a
 * screen queries; every other field rides along unindexed. A later feature (assets, RFID records,
 * inventory sheets and lines, repair tickets, daily reports) adds its collection with ONE entry here and
 * bumps OFFLINE_SCHEMA_VERSION when it changes a store's keys or indexes.
 *
 * Caches fed by the delta feed GET /api/sync/<name> are farm-scoped: every row carries `agentKey`, added by the
 * client on write. The miners feed lands in minerBuckets / minerIndex (miner-store.ts), because one record per miner
 * is too slow at 20,000 miners; the other feeds in a store of their name.
 */
import type Dexie from 'dexie';

export interface OfflineCollection {
  /** Store name (= the /api/sync/<name> collection for a store fed by the feed). */
  name: string;
  /** Dexie schema string: primary key first, then indexes ('[a+b]' = compound). */
  schema: string;
  /** A copy of the farms' data held for the logged-in user: dropped at logout (sync.ts forgetOfflineCaches). */
  userCopy: boolean;
}

/**
 * Bump when a store's primary key or indexes change (Dexie upgrades in place; rows of feed-fed stores can be refetched).
 * 2: miners lost the unused [agentKey+version] index (every index is written with each of the 20,000 rows of a sync).
 * 3: the miners left their one-record-per-miner store for buckets and a keys record (miner-store.ts); the old store
 *    is dropped and the miners' sync cursor forgotten, so the next sync fills the new stores from the beginning.
 */
export const OFFLINE_SCHEMA_VERSION = 3;

/** Stores of earlier versions that the current one deletes. */
const DROPPED_STORES = ['miners'] as const;

export const OFFLINE_COLLECTIONS = [
  // Farm-scoped caches fed by /api/sync/<name>. Key = [agentKey+id] so two farms never collide.
  { name: 'customers', schema: '[agentKey+id], [agentKey+name]', userCopy: true },
  // The miners feed (/api/sync/miners) lands in two stores of few records each (miner-store.ts): no secondary index.
  { name: 'minerBuckets', schema: '[agentKey+bucket]', userCopy: true },
  { name: 'minerIndex', schema: '[agentKey+part]', userCopy: true },
  // Client-only stores.
  /** Per (agentKey, collection): the last cursor and when the collection was last synced. */
  { name: 'syncState', schema: '[agentKey+collection]', userCopy: true },
  /** Offline writes waiting for the server (lib/offline/outbox.ts). id = Idempotency-Key (UUIDv7). Kept at logout. */
  { name: 'outbox', schema: 'id, state, [state+nextAttemptAt], agentKey, created', userCopy: false },
  /** Miners the technician opened lately, per farm. */
  { name: 'recentMiners', schema: '[agentKey+minerId], [agentKey+openedAt]', userCopy: true },
] as const satisfies readonly OfflineCollection[];

export type OfflineCollectionName = (typeof OFFLINE_COLLECTIONS)[number]['name'];

/**
 * Declares the current schema on a connection to the console's database (the shared one of db.ts and the outbox's
 * strict-durability one), with the upgrade from earlier versions: whichever connection opens first upgrades.
 */
export function declareOfflineSchema(db: Dexie): void {
  const stores: Record<string, string | null> = {};
  for (const c of OFFLINE_COLLECTIONS) stores[c.name] = c.schema;
  for (const name of DROPPED_STORES) stores[name] = null;
  db.version(OFFLINE_SCHEMA_VERSION)
    .stores(stores)
    .upgrade(async (tx) => {
      // The miners' cursor belonged to the dropped store: without it the next sync starts from the beginning.
      await tx
        .table('syncState')
        .filter((s: { collection?: string }) => s.collection === 'miners')
        .delete();
    });
}
