/**
 * openDatabase on a new data directory (a new installation, `npm run demo` the first time): the database is created
 * and migrated, and the server does not go on holding the ~430 MB of buffers that creating PGlite's cluster leaves
 * behind (freed only by a full garbage collection, which a quiet server may not run for a long time). Measured in a
 * child process of its own, so no other test's PGlite counts, and without forcing a collection, as the server runs.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const CHILD = `
  const { openDatabase } = await import(${JSON.stringify(path.resolve('src/server/db/kysely.ts'))});
  const opened = await openDatabase({ dataDir: process.argv[1], databaseUrl: null });
  const { rows } = await opened.pglite.query("select count(*)::int as n from information_schema.tables where table_name = 'miners'");
  // As a server that has just started and waits for requests: looked at for 2 s (without the fix it stays at ~630 MiB
  // for at least half a minute).
  let external = Infinity;
  for (let i = 0; i < 10; i++) {
    external = process.memoryUsage().external;
    if (external < 300 * 1048576) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(JSON.stringify({ miners: rows[0].n, externalMiB: Math.round(external / 1048576) }));
  process.exit(0);
`;

async function openIn(dir: string): Promise<{ miners: number; externalMiB: number }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, dir], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { miners: number; externalMiB: number };
}

describe('openDatabase (PGlite)', () => {
  it('creates and migrates a new data directory without keeping the memory the creation took', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hf-open-db-'));
    dirs.push(dir);
    const fresh = await openIn(dir);
    expect(fresh.miners).toBe(1);
    // ~200 MiB: PGlite's own memory, as when an existing directory is opened (without the fix: ~630 MiB)
    expect(fresh.externalMiB).toBeLessThan(400);
    const again = await openIn(dir);
    expect(again.miners).toBe(1);
    expect(again.externalMiB).toBeLessThan(400);
  }, 90_000);
});
