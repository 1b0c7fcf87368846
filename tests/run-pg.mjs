/** The server suite on a real PostgreSQL: start one, migrate a template database, run the suite against clones of it. */
import { spawnSync } from 'node:child_process';
import { startPostgres } from './support/pg-server.mjs';

const pg = await startPostgres();
let status;
try {
  const prep = spawnSync('npx', ['tsx', 'tests/server/pg-template.ts', pg.url], { stdio: 'inherit' });
  if (prep.status !== 0) throw new Error('template migration failed');
  const extra = process.argv.slice(2);
  const r = spawnSync('npx', ['vitest', 'run', '--project', 'node', 'tests/server', ...extra], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: pg.url },
  });
  status = r.status ?? 1;
} finally {
  pg.stop();
}
process.exit(status ?? 1);
