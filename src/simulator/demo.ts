/**
 * `npm run demo`: the server (embedded database, bound to 127.0.0.1 unless HOST is set), a simulated mixed
 * fleet (default 2,000 miners; --miners N; about 2 % of them faulty at any time, --healthy for none) and the farm's
 * agent. On first run it creates the user `demo` (password `demo1234`), the farm `demo-farm` and scan ranges covering
 * the fleet, through the public API, as a person would. The agent runs as its own process, exactly as on a farm.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_SECRET_ENV } from '@shared/agent-cli';
import { DEMO_FAULT_RATES } from './faults';
import { SIM_POOL_URLS, startFleet } from './fleet';
import { startMailCatcher } from './services/mail-catcher';

const DEMO_USER = 'demo';
const DEMO_PASSWORD = 'demo1234';
const DEMO_FARM = 'demo-farm';
/** The demo user's e-mail, where the demo's mailbox catches the verification codes of sensitive operations. */
const DEMO_EMAIL = 'demo@example.com';

const { values } = parseArgs({ options: { miners: { type: 'string', default: '2000' }, seed: { type: 'string', default: '1' }, healthy: { type: 'boolean', default: false } } });
const miners = Number(values.miners);
if (!Number.isInteger(miners) || miners < 1 || miners > 65000) throw new Error('--miners must be 1…65000');
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
const base = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
const children: ChildProcess[] = [];

function run(name: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`[demo] ${name} exited (${code}); stopping`);
      void stop(1);
    }
  });
  children.push(child);
  return child;
}

let cookie = '';
async function call<T>(method: 'GET' | 'POST', p: string, body?: Record<string, string>): Promise<{ code: number | string; msg: string; data: T }> {
  const res = await fetch(base + p, {
    method,
    headers: { cookie, 'X-Requested-With': 'demo', I18N: 'en-US', ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
    body: body ? new URLSearchParams(body).toString() : undefined,
  });
  const set = res.headers.get('set-cookie');
  if (set) cookie = set.split(';')[0] ?? '';
  return (await res.json()) as { code: number | string; msg: string; data: T };
}

async function waitForServer(): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    try {
      const r = await fetch(`${base}/api/config/public`);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('the server did not start within 2 minutes');
}

function ipAt(cidrBase: string, offset: number): string {
  const n = cidrBase.split('.').reduce((a, p) => a * 256 + Number(p), 0) + offset;
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

let stopping = false;
let fleetClose: (() => Promise<void>) | null = null;
let mailClose: (() => Promise<void>) | null = null;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  await fleetClose?.();
  await mailClose?.();
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  console.log(`[demo] starting the simulated fleet: ${miners} miners on 127.20.0.1…`);
  // A farm as operators see one: ~2 % of the miners faulty at any time, faults coming and going (--healthy: none).
  // Offline miners are silent, as powered-off units are: the agent times out on them ("no answer").
  const fleet = await startFleet({ miners, cidr: '127.20.0.0/16', seed: Number(values.seed), faultRates: values.healthy ? {} : DEMO_FAULT_RATES, offlineAnswer: 'silent' });
  fleetClose = () => fleet.close();
  // The server logs warnings only, so the agent's cycle lines stay readable (LOG_LEVEL overrides).
  // The simulated pools' observer pages are on loopback: the observer-link test may fetch them.
  // Mail: the demo's own mailbox unless SMTP_URL says where to send; it prints every message (the verification codes of
  // sensitive operations, approval requests), since the demo has no real inbox.
  let smtpUrl = process.env.SMTP_URL ?? '';
  if (!smtpUrl) {
    const catcher = await startMailCatcher((m) => console.log(`[demo] mail to ${m.to.join(', ')} — ${m.subject}\n${m.text.replace(/^/gm, '    ')}`));
    mailClose = () => catcher.close();
    smtpUrl = catcher.url;
  }
  run('server', ['src/server/main.ts'], {
    HOST: host,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    OBSERVER_ALLOW_PRIVATE: process.env.OBSERVER_ALLOW_PRIVATE ?? 'true',
    SMTP_URL: smtpUrl,
  });
  await waitForServer();

  const cfg = await call<{ setupNeeded: boolean }>('GET', '/api/config/public');
  if (cfg.data.setupNeeded) await call('POST', '/api/userv3/setup', { user: DEMO_USER, password: DEMO_PASSWORD });
  const login = await call('POST', '/api/userv3/login', { user: DEMO_USER, password: DEMO_PASSWORD });
  if (login.code !== 0) throw new Error(`cannot log in as ${DEMO_USER}: ${login.msg} (this data directory has other users; use a fresh DATA_DIR)`);
  // An e-mail bound, so the verification codes of sensitive operations (set pools, factory reset …) reach the mailbox.
  const me = await call<{ email: string | null }>('GET', '/api/userv2/info');
  if (!me.data.email) await call('POST', '/api/userv2/bindEmail', { email: DEMO_EMAIL });

  const secretFile = path.join(dataDir, 'demo-agent.json');
  let secret: string;
  const farms = await call<{ value: string }[]>('GET', '/api/options/agent');
  if (!farms.data.some((f) => f.value === DEMO_FARM)) {
    const created = await call<{ secret: string }>('POST', '/api/agent/createv2', { agentName: 'Demo farm', agentKey: DEMO_FARM, agentAddr: 'Simulated fleet' });
    if (created.code !== 0) throw new Error(`cannot create the demo farm: ${created.msg}`);
    secret = created.data.secret;
  } else {
    try {
      secret = (JSON.parse(readFileSync(secretFile, 'utf8')) as { secret: string }).secret;
    } catch {
      secret = (await call<{ secret: string }>('POST', '/api/agent/rotateSecret', { agentKey: DEMO_FARM })).data.secret;
    }
  }
  writeFileSync(secretFile, JSON.stringify({ agentKey: DEMO_FARM, secret }), { mode: 0o600 });

  const ranges = await call<unknown[]>('GET', `/api/scanip/list?agentKey=${DEMO_FARM}`);
  if (Array.isArray(ranges.data) && ranges.data.length === 0) {
    // One range per /16 block the fleet occupies.
    const lines: string[] = [];
    for (let first = 1; first <= miners; first += 65_534) lines.push(`${ipAt('127.20.0.0', first)}-${ipAt('127.20.0.0', Math.min(miners, first + 65_533))}-demo fleet`);
    const saved = await call('POST', '/api/scanip/batchSave', { agentKey: DEMO_FARM, scanIpList: lines.join('\n') });
    if (saved.code !== 0) throw new Error(`cannot save scan ranges: ${saved.msg}`);
  }
  // The farm's allowed pools (the fleet's three), so a hijacked miner (simulator fault illegal-pool) shows as
  // "illegal pool": without a whitelist every pool is allowed and the counter stays at 0.
  const whitelist = await call<unknown[]>('GET', `/api/poolWhitelist/list?agentKey=${DEMO_FARM}`);
  if (Array.isArray(whitelist.data) && whitelist.data.length === 0) {
    const saved = await call('POST', '/api/poolWhitelist/save', { agentKey: DEMO_FARM, poolUrls: SIM_POOL_URLS.join(',') });
    if (saved.code !== 0) throw new Error(`cannot save the pool whitelist: ${saved.msg}`);
  }
  await call('POST', '/api/agent/updateAgentSettings', {
    agentKey: DEMO_FARM,
    pollIntervalSec: '30',
    offlineAfterMissed: '3',
    packetSize: '50',
    pauseMs: '3000',
    // sshPort: the security scan probes the simulator's SSH listener (22, or 2222 when 22 cannot be bound)
    ...(fleet.ports.rpc !== 4028 || fleet.ports.web !== 80 || fleet.ports.whatsminerV3 !== 4433 || fleet.ports.ssh !== 22
      ? { rpcPort: String(fleet.ports.rpc), webPort: String(fleet.ports.web), whatsminerV3Port: String(fleet.ports.whatsminerV3), sshPort: String(fleet.ports.ssh) }
      : {}),
  });

  // The secret through the environment (AGENT_SECRET_ENV), not on the agent's command line, which every user of the computer can read.
  run('agent', ['src/agent/main.ts', '--server', base, '--key', DEMO_FARM, '--data-dir', path.join(dataDir, 'demo-agent')], { [AGENT_SECRET_ENV]: secret });
  console.log(
    [
      '',
      `  Hashfield demo is running: ${base}`,
      `  log in as  user: ${DEMO_USER}   password: ${DEMO_PASSWORD}`,
      `  farm ${DEMO_FARM} with ${miners} simulated miners (control API http://127.0.0.1:${fleet.ports.control})`,
      ...(process.env.SMTP_URL ? [] : [`  mail (the verification codes sent to ${DEMO_EMAIL}) is printed here`]),
      '  Ctrl+C stops everything.',
      '',
    ].join('\n'),
  );
}

main().catch(async (err: unknown) => {
  console.error('[demo]', err instanceof Error ? err.message : err);
  await stop(1);
});
