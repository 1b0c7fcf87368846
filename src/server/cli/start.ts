/**
 * `npm start`: builds the console when dist/ is missing or older than the sources, then starts the server
 * (API + PWA on one port; PGlite under ./data unless DATABASE_URL is set).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const index = path.resolve('dist/index.html');
const sources = Math.max(...['src/client', 'src/locales', 'src/shared', 'sw', 'public'].filter(existsSync).map(newest), statSync('index.html').mtimeMs);
if (!existsSync(index) || statSync(index).mtimeMs < sources) {
  console.log('Building the console (vite build)…');
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await import('../main');
