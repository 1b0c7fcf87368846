/**
 * Opens the database: PGlite under DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Migrations (db/migrations, YYYYMMDDHHmm_verb_thing.ts) run at start through Kysely's migrator.
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import { PREPARED, PREPARED_MAX } from './prepared-statements';
import type { Database } from './schema';

export type DB = Kysely<Database>;

export interface OpenedDatabase {
  db: DB;
  kind: 'pglite' | 'postgres';
  /** The embedded instance, when kind is pglite (tests clone it). */
  pglite: PGlite | null;
  close(): Promise<void>;
}

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

class DirectoryMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(migrationsDir)).filter((f) => /^\d{12}_[a-z0-9_]+\.(ts|js)$/.test(f)).sort();
    const out: Record<string, Migration> = {};
    for (const f of files) out[f.replace(/\.(ts|js)$/, '')] = (await import(pathToFileURL(path.join(migrationsDir, f)).href)) as Migration;
    return out;
  }
}

export async function migrate(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider: new DirectoryMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration failed: ${failed?.migrationName ?? ''} ${String(error)}`);
}

/** The Kysely instances over the embedded PGlite (one connection for everything: see isEmbedded). */
const embedded = new WeakSet<DB>();

/** Whether `db` runs on the embedded PGlite, where every query waits for the one connection (and a transaction holds it). */
export const isEmbedded = (db: DB): boolean => embedded.has(db);

/** Per embedded instance: the one over the same PGlite whose work waits while the other's waits (inBackground). */
const backgrounds = new WeakMap<DB, DB>();

/**
 * The instance for long work that should not hold up the console (an agent upload's chunks): on the embedded PGlite
 * one whose turns on the connection come after every waiting request (pglite-dialect.ts, Gate); `db` itself on
 * PostgreSQL, where each has a connection of its own.
 */
export const inBackground = (db: DB): DB => backgrounds.get(db) ?? db;

/**
 * Runs `work` in a transaction of its own, or inside the one `db` already is (Kysely has no nested transactions): a
 * write that is a step of a larger one (a pool-configuration plan's batches) commits or rolls back with it.
 */
export function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

export function pgliteDatabase(pglite: PGlite): OpenedDatabase {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  embedded.add(db);
  const background = new Kysely<Database>({ dialect: new PGliteDialect(pglite, { background: true }) });
  embedded.add(background);
  backgrounds.set(db, background);
  return { db, kind: 'pglite', pglite, close: () => pglite.close() };
}

/**
 * How long an idle pooled connection stays open. node-postgres closes one after 10 s by default, so consoles that ask
 * every few tens of seconds met new PostgreSQL backends again and again: each one starts with cold catalog caches and
 * prepares our named statements anew (custom plans for its first executions). Measured with the list bench (100,000
 * miners, 20 clients, PostgreSQL): the database's CPU per page 1.2–5.5 ms → 0.8–1.0 ms, the server's 1.2–2.0 → 0.9–1.4
 * ms, p95 55–149 → 37–72 ms. Ten open connections cost PostgreSQL a few MB each.
 */
const POOL_IDLE_MS = 300_000;

export function postgresDatabase(url: string, max = 10): OpenedDatabase {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: POOL_IDLE_MS });
  // An idle connection closed by the server (restart, failover, a dropped database) must not crash the process:
  // the pool discards it and opens a new one on the next query.
  pool.on('error', (err) => console.error(`postgres: idle connection lost: ${err.message}`));
  pool.on('connect', preparePrefixed);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', pglite: null, close: () => db.destroy() };
}

/** PREPARED statements (prepared-statements.ts) as named statements of node-postgres, per connection. */
function preparePrefixed(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const names = new Map<string, string>();
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || !text.startsWith(PREPARED) || !Array.isArray(values) || rest.length > 0) return query(text, values, ...rest);
    let name = names.get(text);
    if (!name) {
      if (names.size >= PREPARED_MAX) return query(text, values);
      name = `hf_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return query({ name, text, values });
  };
}

/**
 * A full garbage collection now: the process's own `gc` when started with --expose-gc, else the one V8 exposes to a
 * new context once the flag is set at run time (Node's documented way; the flag only adds the function).
 */
function fullCollection(): void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) return own();
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export async function openDatabase(opts: { dataDir: string; databaseUrl: string | null }): Promise<OpenedDatabase> {
  let opened: OpenedDatabase;
  if (opts.databaseUrl) opened = postgresDatabase(opts.databaseUrl);
  else {
    const dir = path.join(opts.dataDir, 'pglite');
    await fs.mkdir(dir, { recursive: true });
    if (!existsSync(path.join(dir, 'PG_VERSION'))) {
      // Creating the cluster leaves ~430 MB of buffers (external memory) that only a full garbage collection frees,
      // and a quiet server may not run one for a long time: a new installation's server (and the demo's first run)
      // held ~850 MB RSS. So the instance that created it is closed and, once its last work has run, the server
      // opens a fresh one (~200 MB external, as after any restart; ~0.2 s more, once). The buffers are collected
      // before it opens (fullCollection): left to V8, whose heuristics the fresh instance's allocation usually
      // triggered, the collection came too early in 1 start of 6 with a 50 ms pause, and still in CI under load
      // (635 MiB kept).
      await (await PGlite.create(dir)).close();
      await new Promise((r) => setTimeout(r, 50));
      fullCollection();
    }
    opened = pgliteDatabase(await PGlite.create(dir));
  }
  await migrate(opened.db as unknown as Kysely<unknown>);
  return opened;
}
