/**
 * `npm test`: typecheck, lint (+ structure rules), unit and server tests on PGlite, the server suite on a
 * real PostgreSQL, the production build, then the Playwright suite in Chromium against it.
 * Prints one closing line "tests: N passed, N failed". Set SKIP_E2E=1 or SKIP_PG=1 to leave a stage out locally.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const out = path.resolve('.tmp/test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const totals = { passed: 0, failed: 0 };
const failures = [];
const times = [];
const failedTests = [];

/** The failed tests of a vitest JSON report, with the first line of their error, for the closing summary (CI shows the tail). */
function noteFailedTests(name, j) {
  for (const file of j.testResults ?? []) {
    const rel = path.relative(process.cwd(), file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) {
      const first = String(a.failureMessages?.[0] ?? '').split('\n').find((l) => l.trim()) ?? '';
      failedTests.push(`${name}: ${rel} > ${a.fullName ?? a.title}\n    ${first.slice(0, 300)}`);
    }
    if (!failed.length && file.status === 'failed') failedTests.push(`${name}: ${rel}\n    ${String(file.message ?? '').split('\n')[0].slice(0, 300)}`);
  }
}

function step(name, cmd, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  times.push(`${name} ${secs}s`);
  if (r.status !== 0) failures.push(name);
  return r.status === 0;
}

function vitest(name, args, env = {}) {
  const file = path.join(out, `${name}.json`);
  step(name, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], env);
  if (existsSync(file)) {
    const j = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += j.numPassedTests ?? 0;
    totals.failed += (j.numFailedTests ?? 0) + (j.numRuntimeErrorTests ?? 0);
    if ((j.numTotalTests ?? 0) === 0) failures.push(`${name} (ran no test)`);
    noteFailedTests(name, j);
  } else totals.failed += 1;
}

step('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
step('lint', 'npx', ['eslint', '--max-warnings', '0', 'src', 'tests', 'sw', 'vite.config.ts', 'eslint.config.js']);
step('structure', 'node', ['tests/support/check-structure.mjs']);
vitest('unit-and-server-pglite', ['--project', 'node', '--project', 'client']);
if (process.env.SKIP_PG !== '1') {
  const file = path.join(out, 'server-postgres.json');
  step('server-postgres', 'node', ['tests/run-pg.mjs', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]);
  if (existsSync(file)) {
    const j = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += j.numPassedTests ?? 0;
    totals.failed += j.numFailedTests ?? 0;
    noteFailedTests('server-postgres', j);
  } else totals.failed += 1;
}
if (process.env.SKIP_E2E !== '1') {
  if (step('build', 'npx', ['vite', 'build', '--logLevel', 'warn'])) vitest('e2e-chromium', ['--project', 'e2e']);
  else failures.push('e2e-chromium (not run: build failed)');
}

if (failedTests.length) console.log(`\nfailed tests:\n  ${failedTests.join('\n  ')}`);
console.log(`\nstages: ${times.join(', ')}`);
if (failures.length) console.log(`failed stages: ${failures.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failures.length || totals.failed ? 1 : 0);
