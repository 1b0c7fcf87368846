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
import { parseRows } from './pglite-rows';
import { PREPARED, PREPARED_MAX, prepareMessage, runMessage } from './prepared-statements';

/**
 * The one connection of a PGlite, handed to one holder at a time (a Kysely "connection": a query, or a transaction until
 * commit), in the order asked — except background work (agent uploads: see PGliteDialect), which waits while anything
 * else waits, for at most BACKGROUND_WAIT_MAX_MS, so a console's request is never stuck behind an upload's chunks one
 * chunk per query.
 *
 * Everything PGlite does runs on the server's thread and a query's promises settle as microtasks: handed on and on, the
 * connection kept Node from reading its sockets until the last holder was done. Then a request that came in meanwhile
 * waited for every request read with it; under 20 concurrent consoles on a 100,000-miner farm
 * (tests/bench/miner-list.bench.ts) the same few clients were served every other round (~70 ms against ~35 ms). So a
 * holder lets the event loop run first when YIELD_EVERY_MS have passed since it last did: new requests join the queue
 * in arrival order. (One turn before every query cost 8–10 % of the list's throughput; one every 5 ms nothing measured.)
 * With that turn alone, a console's request during an upload waited for a whole chunk between each of its queries (the
 * chunk asked during the turn): the longest wait of a console paging the list during a 20,000-miner upload went from
 * 220–275 ms to 432–504 ms. Hence background work's place behind the rest, and after the next query of a request that
 * just ran one: that wait is now one chunk at most (233 ms), and under 20 consoles the bench's rows over 50 ms at p95
 * went from 6 of 8 to 3 and 3 of 8 (same hour; p50 and requests/s within the runs' spread).
 */
class Gate {
  private held = false;
  private readonly waiting: Array<() => void> = [];
  private readonly background: Array<{ grant: () => void; since: number }> = [];
  /** When a holder last let the event loop run (performance.now()). */
  private lastYield = 0;

  /** The connection, once it is the caller's turn; the event loop runs first when YIELD_EVERY_MS have passed since it last did. */
  async acquire(background: boolean): Promise<() => void> {
    const release = await this.lock(background);
    if (performance.now() - this.lastYield > YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.lastYield = performance.now();
    }
    return release;
  }

  private lock(background: boolean): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.held = true;
        resolve(() => this.unlock());
      };
      if (!this.held) grant();
      else if (background) this.background.push({ grant, since: performance.now() });
      else this.waiting.push(grant);
    });
  }

  private unlock(): void {
    this.held = false;
    const first = this.background[0];
    if (this.waiting.length > 0 && !(first && performance.now() - first.since > BACKGROUND_WAIT_MAX_MS)) this.waiting.shift()!();
    // Background work only after the holder that just let go has asked for its next query, if it has one (a request
    // is usually a few queries in a row): at the next turn of the event loop, if the connection is still free.
    else if (first) setImmediate(() => this.grantBackground());
  }

  private grantBackground(): void {
    if (this.held) return; // taken meanwhile: the background waiter is served at a later unlock
    this.background.shift()?.grant();
  }
}

const YIELD_EVERY_MS = 5;
/** Background work waits for the rest at most this long (an upload is not starved by steady console traffic). */
const BACKGROUND_WAIT_MAX_MS = 1000;
const gates = new WeakMap<PGlite, Gate>();

interface Prepared {
  name: string;
  /** The parameters' type oids, as the database told them. */
  types: number[];
}
/** The statements prepared in each PGlite (a session of its own: a clone starts with none). */
const preparedByDb = new WeakMap<PGlite, Map<string, Prepared>>();

/** A PREPARED statement (prepared-statements.ts): prepared on first use, then one protocol call per run. */
async function runPrepared<R>(db: PGlite, q: CompiledQuery): Promise<QueryResult<R> | null> {
  let statements = preparedByDb.get(db);
  if (!statements) preparedByDb.set(db, (statements = new Map()));
  let st = statements.get(q.sql);
  if (!st) {
    if (statements.size >= PREPARED_MAX) return null;
    const name = `hf_${statements.size + 1}`;
    const { messages } = await db.execProtocol(prepareMessage(name, q.sql), { syncToFs: false });
    const described = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
    st = { name, types: described?.dataTypeIDs ?? [] };
    statements.set(q.sql, st);
  }
  // Values as PGlite's query() writes them: its serializer for the parameter's type, else the value's text.
  const values = q.parameters.map((v, i) => {
    if (v === null || v === undefined) return null;
    const serialize = db.serializers[st.types[i] ?? 0];
    return serialize ? serialize(v) : String(v);
  });
  // The output as raw bytes, read by parseRows (pglite-rows.ts) instead of PGlite's message parser: ~0.5 ms less per
  // list page. Each chunk is a view of PGlite's memory, copied before the next one overwrites it.
  const chunks: Uint8Array[] = [];
  await db.execProtocolRawStream(runMessage(st.name, values), { onRawData: (chunk) => void chunks.push(chunk.slice()) });
  return { rows: parseRows<R>(joinChunks(chunks), db.parsers) };
}

function joinChunks(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly db: PGlite) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    if (q.sql.startsWith(PREPARED)) {
      const res = await runPrepared<R>(this.db, q);
      if (res) return res;
    }
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
  private readonly gate: Gate;
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly conn: PGliteConnection;
  constructor(
    db: PGlite,
    private readonly background: boolean,
  ) {
    this.conn = new PGliteConnection(db);
    let gate = gates.get(db);
    if (!gate) gates.set(db, (gate = new Gate()));
    this.gate = gate;
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.gate.acquire(this.background);
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

/**
 * `background`: this instance's work gives way to the other instances' over the same PGlite (Gate) — for the agent's
 * uploads (inBackground in kysely.ts).
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly db: PGlite,
    private readonly opts: { background?: boolean } = {},
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.db, this.opts.background === true);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
