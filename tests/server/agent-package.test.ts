/**
 * GET /api/agent/package: permission and farm scope; the archive unpacks with tar into agent.js, the farm's
 * config file (server URL = the address the console was reached at, agentKey, no secret), the systemd unit
 * and the README; the bundled agent.js runs on plain Node: --help, a clear refusal without a secret, and —
 * after the installer puts the secret in the file — it connects to a real server, finds a few simulated
 * miners, and reports again after a restart. The same file runs as a poll thread of a large fleet.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { AGENT_HEAP_FLAGS } from '@shared/agent-cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@server/app';
import { agentBundle } from '@server/domains/agent-package/agent-bundle';
import { AGENT_PACKAGE_PERMISSION } from '@server/routes/agent-package';
import type { NucStatus } from '@shared/schemas/farm';
import type { PollWorkerCycle, PollWorkerFinish, PollWorkerReply, PollWorkerRequest } from '@agent/poll-worker';
import { scanRanges } from '@agent/scanner/scanner';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { simDriverEnv } from '../support/sim-driver-env';
import { type Fleet, startFleet } from '@sim/fleet';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

const CIDR = '127.67.0.0/24';
const MINERS = 3;
const KEY = 'pkg-farm';

let t: TestApp;
let admin: Client;
let secret = '';
let fleet: Fleet;
let server: FastifyInstance;
let port = 0;
let workDir = '';
const agents: ChildProcess[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await setupAdmin(t.app);
  secret = (await createFarm(admin, KEY, { agentName: 'Package farm' })).secret;
  await createFarm(admin, 'other-farm');
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-pkg-'));
}, 60_000);

/** SIGTERM (the agent forwards it to its re-executed child and exits), SIGKILL after 10 s. */
async function stop(p: ChildProcess): Promise<number | null> {
  if (p.exitCode !== null || p.signalCode !== null) return p.exitCode;
  const exited = new Promise<number | null>((r) => p.once('exit', (code) => r(code)));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

afterAll(async () => {
  for (const a of agents) await stop(a);
  await server?.close();
  await fleet?.close();
  await t?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

function unpack(archive: Buffer, name: string): string {
  const dir = path.join(workDir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'p.tar.gz'), archive);
  execFileSync('tar', ['-xzf', 'p.tar.gz'], { cwd: dir });
  return path.join(dir, `hashfield-agent-${KEY}`);
}

/** Runs node; out is stdout and stderr together as they came, stdout and stderr each on its own as well. */
function runNode(args: string[], cwd: string): Promise<{ code: number | null; out: string; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let out = '';
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      stdout += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      out += d.toString();
      stderr += d.toString();
    });
    p.on('exit', (code) => resolve({ code, out, stdout, stderr }));
  });
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number, log: () => string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\nagent log:\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('GET /api/agent/package', () => {
  let pkgDir = '';

  it('answers the farm package as a .tar.gz with the farm config, unit file and README', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/agent/package', query: { agentKey: KEY }, headers: { host: 'console.example:8443' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="hashfield-agent-${KEY}.tar.gz"`);
    expect(res.headers['x-agent-build']).toMatch(/^[0-9a-f]{16}$/);
    pkgDir = unpack(res.rawPayload, 'first');
    expect(fs.readdirSync(pkgDir).sort()).toEqual(['README.md', 'README.ru.md', 'README.zh-CN.md', 'agent.js', 'hashfield-agent.json', 'hashfield-agent.service', 'install-windows.ps1', 'package.json']);
    const config = JSON.parse(fs.readFileSync(path.join(pkgDir, 'hashfield-agent.json'), 'utf8')) as Record<string, string>;
    expect(config).toEqual({ server: 'http://console.example:8443', agentKey: KEY, secret: '', dataDir: './agent-data' });
    expect(fs.statSync(path.join(pkgDir, 'hashfield-agent.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(pkgDir, 'agent.js')).mode & 0o777).toBe(0o755);
    // The secret is shown once by the console and never stored in clear: it is not in the package.
    expect(res.rawPayload.includes(Buffer.from(secret))).toBe(false);
    const unit = fs.readFileSync(path.join(pkgDir, 'hashfield-agent.service'), 'utf8');
    expect(unit).toContain('ExecStart=/usr/bin/env node /opt/hashfield-agent/agent.js --data-dir /var/lib/hashfield-agent');
    expect(unit).toMatch(/^\[Install\]\nWantedBy=multi-user\.target$/m);
    // Windows: a scheduled task of this farm running agent.js of the folder in one process, its log in a file.
    const ps1 = fs.readFileSync(path.join(pkgDir, 'install-windows.ps1'), 'utf8');
    expect([...ps1].every((c) => c.charCodeAt(0) < 128)).toBe(true); // ASCII: Windows PowerShell reads a script without a BOM in the system code page
    expect(ps1.split('\r\n').slice(0, -1).every((l) => !l.includes('\n'))).toBe(true); // CRLF line ends
    expect(ps1).toContain("$TaskName = 'Hashfield agent pkg-farm'");
    expect(ps1).toContain(`-Argument ('${AGENT_HEAP_FLAGS.join(' ')} "{0}" --log-file "{1}"' -f $agent, $log) -WorkingDirectory $Dir`);
    expect(ps1).toContain("$log = Join-Path $Dir 'agent-data\\agent.log'");
    expect(ps1).toContain('New-ScheduledTaskTrigger -AtStartup');
    expect(ps1).toContain("New-ScheduledTaskPrincipal -UserId 'SYSTEM'");
    expect(ps1).toContain('if (-not $config.secret)');
    expect(ps1).toMatch(/^param\(\[switch\]\$Remove\)\r$/m); // the first statement (comments only before it)
    const readme = fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8');
    expect(readme).toContain('# Hashfield agent of the farm Package farm (pkg-farm)');
    expect(readme).toContain('sudo systemctl restart hashfield-agent');
    expect(readme).toContain('powershell -ExecutionPolicy Bypass -File .\\install-windows.ps1');
    expect(readme).toContain(`Agent build ${String(res.headers['x-agent-build'])}.`);
    // The same steps in the console's other two languages.
    const zh = fs.readFileSync(path.join(pkgDir, 'README.zh-CN.md'), 'utf8');
    expect(zh).toContain('# 矿场 Package farm（pkg-farm）的 Hashfield 代理');
    const ru = fs.readFileSync(path.join(pkgDir, 'README.ru.md'), 'utf8');
    expect(ru).toContain('# Агент Hashfield фермы Package farm (pkg-farm)');
    for (const text of [zh, ru]) {
      expect(text).toContain('sudo systemctl restart hashfield-agent');
      expect(text).toContain('powershell -ExecutionPolicy Bypass -File .\\install-windows.ps1');
      expect(text).toContain('"agentKey": "pkg-farm"');
      expect(text).toContain(String(res.headers['x-agent-build']));
    }
  }, 120_000);

  it('serves the cached bundle the second time', async () => {
    const again = await agentBundle();
    expect(again.source).toBe('memory');
    const res = await admin.get('/api/agent/package', { agentKey: KEY });
    expect(res.headers['x-agent-build']).toBe(again.hash);
  });

  it('checks the permission, the farm membership and the input', async () => {
    const without = await createMember(admin, 'no-wizard', [1000], [KEY]);
    expect((await without.client.get('/api/agent/package', { agentKey: KEY })).statusCode).toBe(403);
    const member = await createMember(admin, 'wizard-user', [AGENT_PACKAGE_PERMISSION], [KEY]);
    expect((await member.client.get('/api/agent/package', { agentKey: KEY })).statusCode).toBe(200);
    expect((await member.client.get('/api/agent/package', { agentKey: 'other-farm' })).statusCode).toBe(403);
    expect((await admin.get('/api/agent/package', { agentKey: 'no-such-farm' })).statusCode).toBe(404);
    const missing = await admin.get('/api/agent/package');
    expect(missing.statusCode).toBe(400);
    expect(body<{ fields: Record<string, string> }>(missing).data.fields.agentKey).toBeTruthy();
  }, 60_000);

  it('runs on plain Node: --help, and a clear refusal while the file has no secret', async () => {
    const help = await runNode(['agent.js', '--help'], pkgDir);
    // Asked-for help is not an error: the options on stdout, exit code 0 (a usage error stays stderr + 2, below).
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/usage: .*--server <URL> --key <agentKey> --secret <secret>/);
    expect(help.stderr).not.toMatch(/usage:/);
    expect(help.stderr).toBe('');
    expect(help.stdout).toContain(`packaged agent: node agent.js [options]; --server, --key, --secret and --data-dir default to ${path.join(pkgDir, 'hashfield-agent.json')}`);
    const noSecret = await runNode(['agent.js'], pkgDir);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('Run with --help for the options.');
    expect(noSecret.out).toContain('no secret: put the farm\'s agent secret in "secret" of');
    expect(noSecret.out).toContain('missing --server, --key or --secret');
  }, 60_000);

  it('connects to the server with the changed file, finds the miners, and reports again after a restart', async () => {
    fleet = await startFleet({ miners: MINERS, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 67, rebootDarkMs: 1500, tickMs: 250 });
    server = await buildApp({ config: t.config, db: t.db, logger: false });
    await server.listen({ host: '127.0.0.1', port: 0 });
    const addr = server.server.address();
    port = addr && typeof addr === 'object' ? addr.port : 0;
    expect((await admin.post('/api/scanip/batchSave', { agentKey: KEY, scanIpList: `127.67.0.1-127.67.0.${MINERS}-fleet` })).statusCode).toBe(200);
    const settings = await admin.post('/api/agent/updateAgentSettings', {
      agentKey: KEY,
      pollIntervalSec: '10',
      rpcPort: String(fleet.ports.rpc),
      webPort: String(fleet.ports.web),
      whatsminerV3Port: String(fleet.ports.whatsminerV3),
    });
    expect(settings.statusCode).toBe(200);

    // Download as the browser at the listening address would: the file names that address.
    const res = await admin.request({ method: 'GET', url: '/api/agent/package', query: { agentKey: KEY }, headers: { host: `127.0.0.1:${port}` } });
    const dir = unpack(res.rawPayload, 'run');
    const file = path.join(dir, 'hashfield-agent.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    expect(config.server).toBe(`http://127.0.0.1:${port}`);
    // "Change file": the installer puts the secret in.
    fs.writeFileSync(file, JSON.stringify({ ...config, secret }, null, 2));

    let log = '';
    const start = (args = ['agent.js']) => {
      const p = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
      p.stdout?.on('data', (d: Buffer) => (log += d.toString()));
      p.stderr?.on('data', (d: Buffer) => (log += d.toString()));
      agents.push(p);
      return p;
    };
    const status = async () => body<NucStatus>(await admin.get('/api/agent/status', { agentKey: KEY })).data;
    const minerTotal = async () => body<{ total: number }>(await admin.get('/api/miner/list', { agentKey: KEY, page: '1', pageSize: '1' })).data.total;

    let proc = start();
    const first = await until('the agent to connect', async () => ((await status()).isOnline ? await status() : null), 60_000, () => log);
    await until(`${MINERS} miners`, async () => (await minerTotal()) === MINERS, 60_000, () => log);
    expect(fs.existsSync(path.join(dir, 'agent-data'))).toBe(true);
    // The file's secret reaches the agent through its environment: neither the launched process nor the one it
    // re-executes itself as (heap flags) shows it on its command line, which every user of the computer can read.
    if (process.platform === 'linux') {
      const cmdline = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const kids = fs.readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      expect(kids.length).toBe(1);
      for (const pid of [proc.pid!, ...kids]) expect(cmdline(pid)).not.toContain(secret);
    }

    // "Restart service": the process stops on SIGTERM and the new one reports (a heartbeat after the old one's).
    expect(await stop(proc)).toBe(0);
    const stoppedAt = (await status()).lastOnlineAt;
    // Started again as the Windows task starts it (install-windows.ps1): heap flags on node's command line, the log
    // in agent-data/agent.log instead of the console.
    const logFile = path.join(dir, 'agent-data', 'agent.log');
    const before = log.length;
    proc = start([...AGENT_HEAP_FLAGS, path.join(dir, 'agent.js'), '--log-file', logFile]);
    const after = await until('a report after the restart', async () => {
      const s = await status();
      return s.lastOnlineAt && s.lastOnlineAt !== stoppedAt && s.lastOnlineAt > (first.lastOnlineAt ?? '') ? s : null;
    }, 60_000, () => log);
    expect(after.isOnline).toBe(true);
    expect(log).not.toContain('no secret');
    const written = await until('a cycle in the log file', async () => {
      const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
      return /\[agent\] cycle \d+: /.test(text) ? text : null;
    }, 60_000, () => log);
    expect(written).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \[agent\] starting: server http:\/\/127\.0\.0\.1:/m);
    expect(log.slice(before)).toBe(''); // nothing on the console: the task would lose it
    expect(await stop(proc)).toBe(0);
  }, 180_000);

  it('runs as a poll thread of its own (sharded-poller.ts starts agent.js in a marked worker for a large fleet)', async () => {
    const res = await admin.request({ method: 'GET', url: '/api/agent/package', query: { agentKey: KEY }, headers: { host: `127.0.0.1:${port}` } });
    const dir = unpack(res.rawPayload, 'thread');
    const env = simDriverEnv(fleet);
    const miners = (await scanRanges([{ ipBegin: CIDR }], env, { concurrency: 10 })).miners;
    expect(miners.length).toBe(MINERS);
    const worker = new Worker(path.join(dir, 'agent.js'), { workerData: { hashfieldPollWorker: true } });
    try {
      const next = () =>
        new Promise<Extract<PollWorkerReply, { t: 'reply' }>>((resolve, reject) => {
          worker.once('message', (m: PollWorkerReply) => (m.t === 'reply' ? resolve(m) : reject(new Error(m.message))));
          worker.once('error', reject);
        });
      const send = (m: PollWorkerRequest) => worker.postMessage(m);
      send({ t: 'env', env });
      send({ t: 'upsert', miners });
      let reply = next();
      send({ t: 'cycle', id: 7, o: { offlineAfterMissed: 2, poolWhitelist: [], concurrency: 10 } });
      const cycle = (await reply) as { id: number; value: PollWorkerCycle };
      expect(cycle.id).toBe(7);
      expect(cycle.value.ok).toBe(MINERS);
      // the second step: the share's snapshots, gzip'd in the thread (comma-joined JSON texts in IP order)
      reply = next();
      send({ t: 'finish', id: 8, dups: [], pack: true });
      const done = (await reply) as { id: number; value: PollWorkerFinish };
      expect(done.id).toBe(8);
      expect(done.value.count).toBe(MINERS);
      const snaps = JSON.parse(`[${zlib.gunzipSync(done.value.gz!).toString('utf8')}]`) as MinerSnapshot[];
      expect(snaps.map((x) => x.ip)).toEqual(miners.map((m) => m.ip).sort((a, b) => Number(a.split('.')[3]) - Number(b.split('.')[3])));
      expect(cycle.value.sns.length).toBe(snaps.filter((x) => x.sn !== '').length);
      expect(snaps.every((x) => x.online && x.rt5s > 0)).toBe(true);
    } finally {
      await worker.terminate();
    }
  }, 60_000);
});
