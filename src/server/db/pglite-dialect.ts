/**
 * Kysely dialect for PGlite (embedded Postgres). PGlite is one connection, so a mutex hands it to one
 * Kysely "connection" at a time: a transaction holds it until commit, and other queries wait (otherwise
 * they would run inside someone else's transaction).
 */
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const prev = this.tail;
    this.tail = prev.then(() => next);
    return prev.then(() => release);
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly db: PGlite) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    if (q.parameters.length === 0 && q.sql.includes(';')) {
      // Several statements (migrations): the simple protocol, as node-postgres does without parameters.
      const all = await this.db.exec(q.sql);
      const last = all[all.length - 1];
      return { rows: (last?.rows ?? []) as R[] };
    }
    const res = await this.db.query<R>(q.sql, q.parameters as unknown[]);
    const affected = res.affectedRows ?? 0;
    return { rows: res.rows, ...(affected ? { numAffectedRows: BigInt(affected) } : {}) };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not stream');
  }
}

class PGliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly conn: PGliteConnection;
  constructor(db: PGlite) {
    this.conn = new PGliteConnection(db);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock();
    // One physical connection: hand out a fresh wrapper so each holder has its own release.
    const c = Object.create(this.conn) as PGliteConnection;
    this.releases.set(c, release);
    return c;
  }
  async beginTransaction(c: DatabaseConnection, s: TransactionSettings): Promise<void> {
    await c.executeQuery(CompiledQuery.raw(s.isolationLevel ? `begin isolation level ${s.isolationLevel}` : 'begin'));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    this.releases.get(c)?.();
    this.releases.delete(c);
  }
  async destroy(): Promise<void> {}
}

export class PGliteDialect implements Dialect {
  constructor(private readonly db: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
