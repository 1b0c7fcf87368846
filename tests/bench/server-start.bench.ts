/**
 * Server start on PGlite. Cold: a fresh DATA_DIR (PGlite initdb + every migration + app build + listen).
 * Warm: the same DATA_DIR again (open the existing cluster, migrations already applied). Each 3 runs.
 */
import { median, ms, printTable, startServer, tempDir } from './bench-support';

const RUNS = 3;

interface StartRun {
  readyMs: number;
  serverStartMs: number | null;
  rssMiB: number;
}

async function once(dataDir: string): Promise<StartRun> {
  const server = await startServer({ dataDir });
  const { rssMiB } = server.memory();
  await server.stop();
  return { readyMs: server.readyMs, serverStartMs: server.serverStartMs, rssMiB };
}

export async function run(): Promise<void> {
  const cold: StartRun[] = [];
  const warm: StartRun[] = [];
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  for (let i = 0; i < RUNS; i++) {
    const d = tempDir('hf-bench-start-');
    dirs.push(d);
    cold.push(await once(d.dir));
  }
  // Warm runs reuse the first cold run's data directory.
  for (let i = 0; i < RUNS; i++) warm.push(await once(dirs[0]!.dir));
  for (const d of dirs) await d.remove();

  const row = (runs: StartRun[]) => ({
    'spawn → first answer (median)': ms(median(runs.map((r) => r.readyMs))),
    'runs': runs.map((r) => Math.round(r.readyMs)).join(' / '),
    'server startMs (median)': ms(median(runs.map((r) => r.serverStartMs ?? NaN))),
    'RSS when ready': `${Math.round(median(runs.map((r) => r.rssMiB)))} MiB`,
  });
  printTable('(a) server start, PGlite, SERVE_DIST=false — median of 3', { cold: row(cold), warm: row(warm) });
}
