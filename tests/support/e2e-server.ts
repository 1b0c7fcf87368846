/**
 * E2E harness: starts the real server (src/server/main.ts through tsx) on a free port with a fresh data
 * directory, serving the already-built console from dist (run `npx vite build` first; this file builds nothing).
 * One server per spec file keeps specs independent. dist is copied into the data directory first, so a
 * `vite build` running at the same time (it empties dist) cannot break a spec half-way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface E2EServer {
  url: string;
  port: number;
  dataDir: string;
  /** Stops the server and keeps the data (for seeding the database, then start again). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>;
  /** Stops it and deletes the data directory. */
  close(): Promise<void>;
  /** Server output so far (for failure messages). */
  log(): string;
}

export interface StartOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}\n${log()}`);
    try {
      const res = await fetch(`${url}/api/config/public`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer /api/config/public within ${timeoutMs} ms\n${log()}`);
}

/** The built console the specs serve: `dist`, or E2E_DIST (a build of one's own: `npx vite build --outDir /tmp/x`). */
const DIST_DIR = process.env.E2E_DIST ?? join(REPO_ROOT, 'dist');

export async function startServer(opts: StartOptions = {}): Promise<E2EServer> {
  if (!existsSync(join(DIST_DIR, 'index.html'))) throw new Error(`${DIST_DIR}/index.html is missing: run \`npx vite build\` before the e2e specs`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'hf-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const distCopy = join(dataDir, 'dist');
  cpSync(DIST_DIR, distCopy, { recursive: true });
  if (!existsSync(join(distCopy, 'index.html'))) throw new Error('dist changed while it was copied (a build is running?): try again');
  let output = '';
  let child: ChildProcess | null = null;

  const launch = async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SERVE_DIST: distCopy, LOG_LEVEL: 'warn', OBSERVER_ALLOW_PRIVATE: 'true', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await waitForServer(url, proc, opts.timeoutMs ?? 90_000, () => output);
  };

  const stop = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((done) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
      }, 15_000);
      proc.once('exit', () => {
        clearTimeout(timer);
        done();
      });
      proc.kill('SIGTERM');
    });
  };

  await launch();
  return {
    url,
    port,
    dataDir,
    stop,
    restart: launch,
    close: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    log: () => output,
  };
}
