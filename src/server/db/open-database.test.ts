/**
 * openDatabase on a new data directory (a new installation, `npm run demo` the first time): the database is created
 * and migrated, and the server does not keep the WebAssembly memory that creating PGlite's cluster needed (~630 MB,
 * never given back by a WebAssembly memory). Measured in a child process of its own, so no other test's PGlite counts.
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
  globalThis.gc();
  console.log(JSON.stringify({ miners: rows[0].n, externalMiB: Math.round(process.memoryUsage().external / 1048576) }));
  process.exit(0);
`;

async function openIn(dir: string): Promise<{ miners: number; externalMiB: number }> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', CHILD, dir], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { miners: number; externalMiB: number };
}

describe('openDatabase (PGlite)', () => {
  it('creates and migrates a new data directory without keeping the memory the creation took', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hf-open-db-'));
    dirs.push(dir);
    const fresh = await openIn(dir);
    expect(fresh.miners).toBe(1);
    // ~200 MiB: PGlite's own memory, as when an existing directory is opened (without the reopen: ~630 MiB)
    expect(fresh.externalMiB).toBeLessThan(400);
    const again = await openIn(dir);
    expect(again.miners).toBe(1);
    expect(again.externalMiB).toBeLessThan(400);
  }, 90_000);
});
