import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteDialect } from './pglite-dialect';

describe('PGlite dialect', () => {
  let pg: PGlite;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    pg = await PGlite.create();
    db = new Kysely<unknown>({ dialect: new PGliteDialect(pg) });
  });
  afterAll(async () => {
    await db.destroy();
    await pg.close();
  });

  // ~15 ms of database work per query on this machine (more than YIELD_EVERY_MS, 5 ms)
  const slow = () => db.executeQuery(CompiledQuery.raw('select sum(x) as s from generate_series(1, 100000) x'));

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
});
