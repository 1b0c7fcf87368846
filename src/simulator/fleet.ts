import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type net from 'node:net';
import { MINER_MODELS, type MinerModel } from '@shared/miner-models';
import { hostAddresses } from './cidr';
import { createControlServer } from './control-server';
import { LUXOS_VERSIONS, initialFirmware, luxosFirmware } from './devices/firmware-catalogue';
import { SimMiner } from './devices/sim-miner';
import { FaultProcess } from './faults';
import { createRng, pick, randomToken } from './rng';
import { createRpcServer, createWhatsminerV3Server } from './rpc-server';
import { SIM_FAMILIES, type FaultKind, type OfflineAnswer, type SimEnv, type SimFamily, type SimPool } from './sim-types';
import { createSshServer } from './ssh-server';
import { createWebServer } from './web-server';

export type { FaultKind, NetQuirk, SimFamily } from './sim-types';
export { SimMiner } from './devices/sim-miner';

export interface FleetOptions {
  miners: number;
  /** default '127.20.0.0/16'; the fleet takes its first N host addresses */
  cidr?: string;
  /** default 4028; 0 = ephemeral */
  rpcPort?: number;
  /** default 80, falling back to 8080 with a warning when 80 cannot be bound; 0 = ephemeral */
  webPort?: number;
  /** default 4433; 0 = ephemeral */
  whatsminerV3Port?: number;
  /**
   * SSH identification (security scan); default 22, falling back to 2222 with a warning when 22 cannot be bound
   * (and, for the default only, to an ephemeral port when 2222 is taken too: fleets started side by side by tests
   * that do not ask for an SSH port). 0 = ephemeral.
   */
  sshPort?: number;
  /** control API port on 127.0.0.1; default 0 = ephemeral */
  controlPort?: number;
  seed?: number;
  /** relative weights per firmware family */
  mix?: Partial<Record<SimFamily, number>>;
  /** random faults, events per miner per hour (default none) */
  faultRates?: Partial<Record<FaultKind, number>>;
  /** tick period, default 1000 ms */
  tickMs?: number;
  /** default '0.0.0.0' */
  bindHost?: string;
  /** how long a reboot keeps a miner unreachable; default 75 s */
  rebootDarkMs?: number;
  /**
   * how offline miners answer (a miner's own setting, SimMiner.offlineAnswer, wins): `silent` as a powered-off unit
   * (pollers time out), `reset` (default) a TCP reset at once — quick for tests that take miners offline
   */
  offlineAnswer?: OfflineAnswer;
}

export interface Fleet {
  readonly ports: { rpc: number; web: number; whatsminerV3: number; ssh: number; control: number };
  readonly miners: SimMiner[];
  miner(ip: string): SimMiner | undefined;
  close(): Promise<void>;
}

/** LuxOS units only appear when a mix asks for them (`mix: { luxos: n }`). */
const DEFAULT_MIX: Record<SimFamily, number> = { 'antminer-stock': 0.72, whatsminer: 0.18, braiins: 0.05, vnish: 0.05, luxos: 0 };

/** Relative share of each catalogue model inside its family (farms hold more S19j Pro / S21 than Hyd units). */
const MODEL_WEIGHTS: Record<string, number> = {
  'antminer-s19': 1, 'antminer-s19j-pro': 3, 'antminer-s19-xp': 2, 'antminer-s19-xp-hyd': 1, 'antminer-s21': 3, 'antminer-t21': 2,
  'whatsminer-m50s': 2, 'whatsminer-m60s': 2, 'braiins-s19j-pro': 1, 'vnish-s21-pro': 1,
};

/** Sub-accounts the simulated pool knows; workers are `<account>.<name>`. */
export const SIM_POOL_ACCOUNTS = ['hfarm01', 'hfarm02', 'hosting-a', 'hosting-b', 'selfmine'] as const;
export const SIM_POOL_URLS = ['stratum+tcp://btc.hashfield-pool.com:3333', 'stratum+tcp://btc-backup.hashfield-pool.com:443', 'stratum+tcp://btc.ss.hashfield-pool.com:25'] as const;

function familyOf(model: MinerModel): SimFamily {
  switch (model.firmware) {
    case 'btminer': return 'whatsminer';
    case 'braiins': return 'braiins';
    case 'vnish': return 'vnish';
    default: return 'antminer-stock';
  }
}

function weightedPick<T>(rng: () => number, items: ReadonlyArray<{ item: T; weight: number }>): T {
  const total = items.reduce((s, x) => s + x.weight, 0);
  let r = rng() * total;
  for (const x of items) {
    r -= x.weight;
    if (r < 0) return x.item;
  }
  const last = items[items.length - 1];
  if (!last) throw new Error('empty weighted list');
  return last.item;
}

function hex2(n: number): string {
  return (n & 255).toString(16).toUpperCase().padStart(2, '0');
}

function ambientAt(now: number, seed: number): number {
  const hour = (now / 3_600_000) % 24;
  return 24 + (seed % 3) + 5 * Math.sin(((hour - 9) / 24) * 2 * Math.PI);
}

function listen(server: net.Server | http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = (): void => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ port, host, backlog: 4096 });
  });
}

const cannotBind = (e: unknown): string | null => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EADDRINUSE' ? code : null;
};

/**
 * The SSH listener's port: 22 (default) falls back to 2222 like the web port 80 to 8080; when the default was not
 * asked for explicitly and 2222 is taken too, any free port. Any other port must bind.
 */
async function listenSsh(server: net.Server, want: number | undefined, host: string): Promise<number> {
  if (want !== undefined && want !== 22) return listen(server, want, host);
  try {
    return await listen(server, 22, host);
  } catch (e) {
    const code = cannotBind(e);
    if (!code) throw e;
    console.warn(`[simulator] cannot bind ssh port 22 (${code}); using 2222 instead`);
  }
  try {
    return await listen(server, 2222, host);
  } catch (e) {
    const code = cannotBind(e);
    if (!code || want !== undefined) throw e;
    console.warn(`[simulator] cannot bind ssh port 2222 (${code}) either; using an ephemeral port`);
    return listen(server, 0, host);
  }
}

function closeServer(server: net.Server | http.Server): Promise<void> {
  return new Promise((resolve) => {
    if ('closeAllConnections' in server && typeof server.closeAllConnections === 'function') server.closeAllConnections();
    server.close(() => resolve());
  });
}

function buildMiners(opts: FleetOptions, env: SimEnv): SimMiner[] {
  const seed = env.seed;
  const rng = createRng(seed);
  const ips = hostAddresses(opts.cidr ?? '127.20.0.0/16', opts.miners);
  // an explicit mix replaces the default one (families it omits get weight 0)
  const mix: Partial<Record<SimFamily, number>> = opts.mix ?? DEFAULT_MIX;
  const families = SIM_FAMILIES.map((f) => ({ item: f, weight: Math.max(0, mix[f] ?? 0) })).filter((x) => x.weight > 0);
  if (families.length === 0) throw new Error('fleet mix has no positive weight');
  const modelsByFamily = new Map<SimFamily, Array<{ item: MinerModel; weight: number }>>();
  for (const model of MINER_MODELS) {
    const f = familyOf(model);
    const list = modelsByFamily.get(f) ?? [];
    list.push({ item: model, weight: MODEL_WEIGHTS[model.id] ?? 1 });
    modelsByFamily.set(f, list);
  }
  // LuxOS is installed on stock Antminer hardware
  modelsByFamily.set('luxos', modelsByFamily.get('antminer-stock') ?? []);
  const now = env.now();
  const miners: SimMiner[] = new Array<SimMiner>(ips.length);
  for (let i = 0; i < ips.length; i++) {
    const ip = ips[i] ?? '';
    const family = weightedPick(rng, families);
    const model = weightedPick(rng, modelsByFamily.get(family) ?? []);
    const octets = ip.split('.').map(Number);
    const account = pick(rng, SIM_POOL_ACCOUNTS);
    const worker = `${account}.${octets[2]}x${octets[3]}`;
    const pools: SimPool[] = [
      { url: SIM_POOL_URLS[0], user: worker, password: 'x', status: 'Alive' },
      { url: SIM_POOL_URLS[1], user: worker, password: 'x', status: 'Alive' },
      rng() < 0.5 ? { url: SIM_POOL_URLS[2], user: worker, password: 'x', status: 'Alive' } : { url: '', user: '', password: '', status: 'Dead' },
    ];
    const whats = family === 'whatsminer';
    const macPrefix = whats ? 'C4:08:28' : `02:${hex2(0x55 + (seed & 0x0f))}:97`;
    const boardSns = Array.from({ length: model.hashboards }, () => (whats ? `BKM3CSE${randomToken(rng, 13, '0123456789K')}` : randomToken(rng, 17)));
    miners[i] = new SimMiner({
      index: i, ip, family, model,
      mac: `${macPrefix}:${hex2(i >> 16)}:${hex2(i >> 8)}:${hex2(i)}`,
      sn: whats ? `HTM3CS40HD${randomToken(rng, 7, '0123456789')}` : randomToken(rng, 17),
      firmware: family === 'luxos' ? luxosFirmware(pick(rng, LUXOS_VERSIONS)) : initialFirmware(model, rng), pools, boardSns,
      webUser: whats ? 'admin' : 'root', webPassword: family === 'vnish' || whats ? 'admin' : 'root',
      bootAt: now - Math.floor(3_600_000 + rng() * 29 * 86_400_000),
      tempOffset: (rng() - 0.5) * 6, rateSpread: (rng() - 0.5) * 0.04,
      whatsminerSalt: randomToken(rng, 8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
    }, env);
  }
  return miners;
}

/** Start a simulated fleet: one listener per protocol port for every miner, plus the control API. */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  if (!Number.isInteger(opts.miners) || opts.miners < 0) throw new Error('miners must be a non-negative integer');
  const seed = (opts.seed ?? 1) >>> 0;
  const env: SimEnv = {
    now: () => Date.now(),
    seed,
    rebootDarkMs: opts.rebootDarkMs ?? 75_000,
    offlineAnswer: opts.offlineAnswer ?? 'reset',
    ambientC: () => ambientAt(Date.now(), seed),
    secret: randomBytes(32),
  };
  const miners = buildMiners(opts, env);
  const byIp = new Map<string, SimMiner>();
  for (const m of miners) byIp.set(m.ip, m);
  const lookup = (ip: string): SimMiner | undefined => byIp.get(ip);
  const accounts = new Set(miners.flatMap((m) => m.pools.map((p) => p.user.split('.')[0] ?? '')).filter(Boolean));
  const faults = new FaultProcess(seed, opts.faultRates ?? {});
  faults.seedSteadyState(miners, env.now());

  const bindHost = opts.bindHost ?? '0.0.0.0';
  const rpc = createRpcServer(lookup, env);
  const web = createWebServer(lookup, env);
  const v3 = createWhatsminerV3Server(lookup, env);
  const ssh = createSshServer(lookup);
  const control = createControlServer({ miners, lookup, faults, accounts, env });
  const started: Array<net.Server | http.Server> = [];
  try {
    const rpcPort = await listen(rpc, opts.rpcPort ?? 4028, bindHost);
    started.push(rpc);
    let webPort: number;
    const wantWeb = opts.webPort ?? 80;
    try {
      webPort = await listen(web, wantWeb, bindHost);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (wantWeb !== 80 || (code !== 'EACCES' && code !== 'EADDRINUSE')) throw e;
      console.warn(`[simulator] cannot bind web port 80 (${code}); using 8080 instead`);
      webPort = await listen(web, 8080, bindHost);
    }
    started.push(web);
    const v3Port = await listen(v3, opts.whatsminerV3Port ?? 4433, bindHost);
    started.push(v3);
    const sshPort = await listenSsh(ssh, opts.sshPort, bindHost);
    started.push(ssh);
    const controlPort = await listen(control, opts.controlPort ?? 0, '127.0.0.1');
    started.push(control);

    const tickMs = Math.max(10, opts.tickMs ?? 1000);
    let last = env.now();
    // one timer for the whole fleet; each miner's tick is O(1)
    const timer = setInterval(() => {
      const now = env.now();
      const dt = now - last;
      last = now;
      faults.tick(miners, now, dt);
      for (const m of miners) m.tick(now, dt);
    }, tickMs);
    timer.unref();

    let closed = false;
    return {
      ports: { rpc: rpcPort, web: webPort, whatsminerV3: v3Port, ssh: sshPort, control: controlPort },
      miners,
      miner: lookup,
      async close() {
        if (closed) return;
        closed = true;
        clearInterval(timer);
        await Promise.all(started.map(closeServer));
      },
    };
  } catch (e) {
    await Promise.all(started.map(closeServer));
    throw e;
  }
}
