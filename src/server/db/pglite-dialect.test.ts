import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteDialect } from './pglite-dialect';

/** The connection's turns (Gate): in order, the event loop let in every few ms, background work after the rest. */
describe('PGlite dialect', () => {
  let pg: PGlite;
  let db: Kysely<unknown>;
  let background: Kysely<unknown>;
  beforeAll(async () => {
    pg = await PGlite.create();
    db = new Kysely<unknown>({ dialect: new PGliteDialect(pg) });
    background = new Kysely<unknown>({ dialect: new PGliteDialect(pg, { background: true }) });
  });
  afterAll(async () => {
    await db.destroy();
    await background.destroy();
    await pg.close();
  });

  // ~15 ms of database work per query on this machine (more than YIELD_EVERY_MS, 5 ms)
  const slow = (on = db) => on.executeQuery(CompiledQuery.raw('select sum(x) as s from generate_series(1, 100000) x'));
  const quick = (label: string, order: string[], on = db) => on.executeQuery(CompiledQuery.raw('select 1')).then(() => void order.push(label));

  it('lets the event loop run while queries wait for the connection: work that came in meanwhile is not held until the queue is empty', async () => {
    await slow(); // warm
    let finished = 0;
    const queued = Array.from({ length: 20 }, () => slow().then(() => finished++));
    await queued[0];
    // Something the event loop has to run (a socket read, a timer): it gets its turn long before the 19 others are done.
    const seenAt = await new Promise<number>((resolve) => setImmediate(() => resolve(finished)));
    await Promise.all(queued);
    expect(finished).toBe(20);
    expect(seenAt).toBeLessThan(5);
  });

  it('hands the connection out in the order it was asked for', async () => {
    const order: number[] = [];
    await Promise.all(Array.from({ length: 30 }, (_, i) => db.executeQuery(CompiledQuery.raw(`select ${i} as i`)).then(() => order.push(i))));
    expect(order).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('serves background work after the other waiting queries, and after the next query of a request that just ran one', async () => {
    const order: string[] = [];
    // An upload's chunk holds the connection; meanwhile another chunk and then a console's request (two queries in a row) ask for it.
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const chunk1 = background.transaction().execute(async (trx) => {
      holding();
      await slow(trx);
      order.push('chunk 1');
    });
    await held;
    const chunk2 = quick('chunk 2', order, background);
    const request = (async () => {
      await quick('request query 1', order);
      await quick('request query 2', order);
    })();
    await Promise.all([chunk1, chunk2, request]);
    expect(order).toEqual(['chunk 1', 'request query 1', 'request query 2', 'chunk 2']);
  });

  it('runs background work at once when nothing else waits, and in order among itself', async () => {
    const order: string[] = [];
    await Promise.all([quick('a', order, background), quick('b', order, background), quick('c', order, background)]);
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
