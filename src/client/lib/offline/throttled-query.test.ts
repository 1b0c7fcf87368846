import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchTable } from './throttled-query';

let db: Dexie;
let other: Dexie;

beforeEach(async () => {
  const name = `throttled-${Math.random()}`;
  db = new Dexie(name);
  db.version(1).stores({ outbox: 'id', miners: 'id' });
  await db.open();
  // a second connection to the same database (the outbox writes through a strict one of its own)
  other = new Dexie(name);
  other.version(1).stores({ outbox: 'id', miners: 'id' });
  await other.open();
});
afterEach(() => {
  db.close();
  other.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A watcher that counts its runs and records what it read each time. */
function watch(intervalMs: number) {
  const seen: number[] = [];
  const stop = watchTable(db.name, 'outbox', async () => {
    seen.push(await db.table('outbox').count());
  }, intervalMs);
  return { seen, stop };
}

describe('watchTable', () => {
  it('reads once at start, and once at once after a quiet change', async () => {
    const w = watch(100);
    await sleep(20);
    expect(w.seen).toEqual([0]);
    await sleep(120);
    await db.table('outbox').add({ id: 'a' });
    await sleep(30);
    expect(w.seen).toEqual([0, 1]);
    w.stop();
  });

  it('reads a burst of 200 writes a few times, not 200, and ends on the last state', async () => {
    const w = watch(100);
    await sleep(20);
    for (let i = 0; i < 200; i++) await (i % 2 ? other : db).table('outbox').add({ id: `e${i}` });
    for (let i = 0; i < 50; i++) await db.table('outbox').delete(`e${i}`);
    await sleep(250);
    expect(w.seen.at(-1)).toBe(150);
    expect(w.seen.length).toBeLessThan(20);
    w.stop();
  });

  it('ignores other tables, and nothing runs after stop', async () => {
    const w = watch(50);
    await sleep(20);
    await db.table('miners').add({ id: 'm' });
    await sleep(80);
    expect(w.seen).toEqual([0]);
    w.stop();
    await db.table('outbox').add({ id: 'late' });
    await sleep(80);
    expect(w.seen).toEqual([0]);
  });
});
