/**
 * (e) first-load — the technician's first load, issue 5's budget: HTML + every JavaScript file a cold
 * Chromium (no HTTP cache, no service worker) fetches to show /field on a 360 px phone when logged in,
 * until the network is idle. Each file is gzip-compressed here (level 6, what a default gzip/nginx sends)
 * from the build output, so the figure does not depend on how the Node server compresses. Target:
 * HTML + JS ≤ 170 KB (170,000 bytes) gzipped. CSS is printed too but is not part of that figure. "sent" is what our
 * server actually sent for the file (the encoded body Chromium received: the build's brotli sibling, precompress.ts).
 *
 * Builds the console into a temporary folder (`vite build --outDir`), starts the server on it (PGlite),
 * creates the administrator and a farm through the API, logs in through the API and hands the session
 * cookie to the browser.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { VIEWPORTS, launchBrowser } from '../support/e2e-browser';
import { BenchClient, REPO_ROOT, printTable, startServer, tempDir } from './bench-support';

export const FIRST_LOAD_TARGET_BYTES = 170_000;
const PASSWORD = 'bench-pass-1';

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

interface Loaded {
  file: string;
  kind: 'html' | 'js' | 'css';
  raw: number;
  gzip: number;
  sent: number | null;
}

export async function run(): Promise<void> {
  const dist = tempDir('hf-bench-dist-');
  const data = tempDir('hf-bench-first-load-');
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  const browser = await launchBrowser();
  try {
    const t0 = performance.now();
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', dist.dir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const buildMs = performance.now() - t0;
    server = await startServer({ dataDir: data.dir, env: { SERVE_DIST: dist.dir, LOG_LEVEL: 'warn' } });

    const admin = new BenchClient(server.url);
    await admin.must('POST', '/api/userv3/setup', { user: 'admin', password: PASSWORD });
    await admin.must('POST', '/api/agent/createv2', { agentName: 'Bench farm', agentKey: 'bench-farm' });
    admin.close();
    const login = await fetch(`${server.url}/api/userv3/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-requested-with': 'XMLHttpRequest' },
      body: new URLSearchParams({ user: 'admin', password: PASSWORD }).toString(),
    });
    const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('hf_session='));
    if (!login.ok || !cookie) throw new Error(`login failed: ${login.status}`);
    const [name, value] = cookie.split('=') as [string, string];

    const ctx = await browser.newContext({ viewport: VIEWPORTS.phone, isMobile: true, hasTouch: true, serviceWorkers: 'block', locale: 'en-US' });
    await ctx.addCookies([{ name, value, url: server.url }]);
    const page = await ctx.newPage();
    const requested: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.origin === server!.url && (r.resourceType() === 'document' || r.resourceType() === 'script' || r.resourceType() === 'stylesheet')) requested.push(url.pathname);
    });
    const sent = new Map<string, number>();
    page.on('requestfinished', (r) => {
      void r.sizes().then((z) => sent.set(new URL(r.url()).pathname, z.responseBodySize), () => undefined);
    });
    const started = performance.now();
    await page.goto(`${server.url}/field`);
    await page.getByTestId('field-home').waitFor({ timeout: 30_000 });
    const renderedMs = performance.now() - started;
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await ctx.close();

    const loaded: Loaded[] = [...new Set(requested)].map((path) => {
      const file = path === '/' || path === '/field' ? 'index.html' : path.replace(/^\//, '');
      const body = readFileSync(join(dist.dir, file));
      const kind = file.endsWith('.html') ? 'html' : file.endsWith('.css') ? 'css' : 'js';
      return { file, kind, raw: body.length, gzip: gzipSync(body, { level: 6 }).length, sent: sent.get(path) ?? null };
    });
    loaded.sort((a, b) => b.gzip - a.gzip);
    const budget = loaded.filter((l) => l.kind !== 'css');
    const total = budget.reduce((s, l) => s + l.gzip, 0);
    const css = loaded.filter((l) => l.kind === 'css').reduce((s, l) => s + l.gzip, 0);
    const sentTotal = budget.reduce((s, l) => s + (l.sent ?? 0), 0);
    printTable(
      `first-load — /field at 360 px, logged in, cold cache (build ${(buildMs / 1000).toFixed(1)} s; field home rendered after ${Math.round(renderedMs)} ms)`,
      loaded.map((l) => ({ file: l.file, kind: l.kind, raw: kb(l.raw), gzip: kb(l.gzip), sent: l.sent === null ? '?' : kb(l.sent), 'in budget': l.kind === 'css' ? 'no (CSS)' : 'yes' })),
    );
    printTable('first-load — total', [
      {
        'HTML + JS gzip': kb(total),
        'HTML + JS sent': kb(sentTotal),
        files: budget.length,
        target: kb(FIRST_LOAD_TARGET_BYTES),
        verdict: total <= FIRST_LOAD_TARGET_BYTES ? 'within budget' : `over by ${kb(total - FIRST_LOAD_TARGET_BYTES)}`,
        'CSS gzip (not counted)': kb(css),
      },
    ]);
  } finally {
    await browser.close();
    await server?.stop();
    await data.remove();
    await dist.remove();
  }
}
