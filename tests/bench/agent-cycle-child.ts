/**
 * The agent side of the agent benchmark, run as its own process (started by agent.bench.ts with the heap
 * flags src/agent/main.ts re-executes the agent with), so its RSS and CPU time are the agent's alone.
 *
 *   node <AGENT_HEAP_FLAGS> --import tsx tests/bench/agent-cycle-child.ts '<spec JSON>'
 *
 * mode "agent": a FarmAgent (real config defaults: scan/poll concurrency, timeouts) scans each range of
 * `scans` with the real scanner, hands the last scan's miners to its real Poller, then runs `cycles` poll
 * cycles exactly as FarmAgent.runCycle does (json snapshots) and spools each batch to disk (gzip).
 * mode "bare": the physical limit — for each address, TCP connect, `{"command":"summary"}`, read until
 * NUL/close, JSON.parse; nothing else, at the same concurrency (also with the command the agent sends a
 * stock Antminer, `summary+pools+stats`, when listed in `bareCommands`); with `bareFamily`, the per-family reference:
 * per miner the agent's own per-cycle reads (bareFamilyPlan) for the fleet the agent child identified (it writes
 * `bench-identities.json` to `dataDir` after its last scan).
 *
 * At start (modules loaded, nothing done) it prints `@@start {"rssMiB":…}`; then every phase prints one line
 * `@@phase {json}` to stdout: wall time, CPU time (process.cpuUsage), RSS peak
 * during the phase (VmHWM after resetting it through /proc/self/clear_refs; sampled when that is not
 * allowed), RSS and heap after.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { AgentConfig, type MinerPorts } from '@shared/schemas/agent-uplink';
import { ANTMINER_CYCLE_READS, NEW_API } from '@agent/families/antminer-stock';
import { BRAIINS_CYCLE_READS } from '@agent/families/braiins';
import { LUXOS_CYCLE_READS } from '@agent/families/luxos';
import { VNISH_CYCLE_READS } from '@agent/families/vnish';
import { WHATSMINER_V2_CYCLE_READS, WHATSMINER_V3_CYCLE_READS } from '@agent/families/whatsminer';
import { AGENT_VERSION, FarmAgent } from '@agent/farm-agent';
import type { IdentifiedMiner } from '@agent/miner-types';
import { isPollWorkerThread, startPollWorker } from '@agent/poll-worker';
import { buildRequest } from '@agent/protocols/cgminer-rpc';
import { iterateRanges, rangesFromSpecs } from '@agent/scanner/ip-range';
import { scanRanges } from '@agent/scanner/scanner';

export interface ChildSpec {
  mode: 'agent' | 'bare';
  dataDir: string;
  /** agent: ranges scanned in order, each against its simulator's ports; the last one feeds the poller */
  scans: Array<{ label: string; cidr: string; ports: MinerPorts; expected: number }>;
  /** the poll cycles' ports (the simulator of the last scan) */
  ports: MinerPorts;
  /** bare: the first `miners` host addresses of `cidr`, one round of cycles per command (e.g. "summary") */
  cidr: string;
  bareCommands: string[];
  /** bare: also run the per-family reference (the agent's cycle reads, see bareFamilyPlan) */
  bareFamily?: boolean;
  miners: number;
  cycles: number;
  /**
   * Each measured cycle (the agent's poll cycles, the bare per-family cycles) waits for a line on stdin, after
   * printing `@@ready <phase>`: the bench alternates the agent's and the bare client's cycles, so a slow minute of
   * the machine falls on both and their ratio compares cycles run side by side.
   */
  stepped?: boolean;
}

export interface PhaseFigures {
  phase: string;
  wallMs: number;
  cpuMs: number;
  rssPeakMiB: number;
  rssAfterMiB: number;
  heapAfterMiB: number;
  peakSource: 'VmHWM' | 'sampled';
  ok: number;
  failed: number;
  extra?: Record<string, number | string>;
}

const MiB = 1024 * 1024;

function vmHwmMiB(): number | null {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Resets the kernel's peak-RSS counter (VmHWM) so the next read is this phase's peak. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

async function measure(phase: string, fn: () => Promise<{ ok: number; failed: number; extra?: PhaseFigures['extra'] }>): Promise<void> {
  const hwm = resetPeak();
  let sampled = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage.rss());
  }, 20);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let r: Awaited<ReturnType<typeof fn>>;
  try {
    r = await fn();
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const mem = process.memoryUsage();
  sampled = Math.max(sampled, mem.rss);
  const peak = hwm ? vmHwmMiB() : null;
  const figures: PhaseFigures = {
    phase,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssPeakMiB: peak ?? sampled / MiB,
    rssAfterMiB: mem.rss / MiB,
    heapAfterMiB: mem.heapUsed / MiB,
    peakSource: peak === null ? 'sampled' : 'VmHWM',
    ...r,
  };
  console.log(`@@phase ${JSON.stringify(figures)}`);
}

let stdinLines: AsyncIterator<string> | null = null;

/** In stepped mode: says the phase is ready and waits for the bench's go (one line on stdin). */
async function step(spec: ChildSpec, phase: string): Promise<void> {
  if (!spec.stepped) return;
  stdinLines ??= createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  console.log(`@@ready ${phase}`);
  if ((await stdinLines.next()).done) throw new Error(`stdin closed before ${phase}`);
}

async function runAgent(spec: ChildSpec): Promise<void> {
  // The real agent object with its real defaults; the server is never contacted (no runCycle/refreshConfig).
  const agent = new FarmAgent({ serverUrl: 'http://127.0.0.1:9', agentKey: 'bench', secret: 'bench', dataDir: spec.dataDir, log: () => undefined });
  const last = spec.scans[spec.scans.length - 1];
  agent.config = AgentConfig.parse({ scanRanges: last ? [{ ipBegin: last.cidr }] : [], ports: spec.ports });
  agent.poller.setEnv(agent.driverEnv());
  const c = agent.config;

  for (const s of spec.scans) {
    await measure(`scan ${s.label}`, async () => {
      const env = { ...agent.driverEnv(), ports: s.ports };
      const r = await scanRanges([{ ipBegin: s.cidr }], env, { concurrency: c.scanConcurrency });
      if (s === last) {
        agent.poller.upsertMiners(r.miners);
        // what the bare per-family reference needs to send each miner the same reads
        writeFileSync(identityFile(spec), JSON.stringify(r.miners.map((m) => ({ ip: m.ip, family: m.family, newApi: m.newApi, whatsminerApi: m.whatsminerApi }))));
      }
      return { ok: r.miners.length, failed: Math.max(0, s.expected - r.miners.length), extra: { scanned: r.scanned, unreachable: r.unreachable } };
    });
  }

  for (let i = 1; i <= spec.cycles; i++) {
    await step(spec, `poll cycle ${i}`);
    await measure(`poll cycle ${i}`, async () => {
      const poll = await agent.poller.pollCycle({ offlineAfterMissed: c.offlineAfterMissed, poolWhitelist: c.poolWhitelist, concurrency: c.pollConcurrency, json: true, pack: true });
      const t0 = performance.now();
      const batch = agent.buffer.enqueuePacked({ agentVersion: AGENT_VERSION, cycleStartedAt: poll.startedAt, cycleDurationMs: poll.durationMs }, poll.packed);
      const spoolMs = performance.now() - t0;
      return {
        ok: poll.ok,
        failed: poll.failed,
        extra: {
          pollMs: poll.durationMs,
          spoolMs,
          snapshots: poll.packed.count,
          batchSeq: batch.batchSeq,
          // miners whose details (MAC/SN/LED) were read in this cycle
          detailReads: poll.detailReads,
          detailEveryCycles: agent.driverEnv().detailEveryCycles,
          threadHeapMiB: (poll.threadHeapBytes ?? []).map((b) => Math.round(b / 1048576)).join('+'),
        },
      };
    });
  }
}

/** The identities of the polled fleet, written by the agent child for the bare one. */
function identityFile(spec: ChildSpec): string {
  return path.join(spec.dataDir, 'bench-identities.json');
}

type BareIdentity = Pick<IdentifiedMiner, 'ip' | 'family' | 'newApi' | 'whatsminerApi'>;

/** One exchange of the per-family bare reference: an RPC request (4028) or a v3 frame sequence (4433). */
type BarePlanItem = { ip: string; rpc: string; whenJson?: boolean } | { ip: string; v3: Buffer[] };

/**
 * The bare per-family reference: per miner, exactly the reads the agent's driver makes every cycle, in as many
 * exchanges, with the same request bytes (drivers' *_CYCLE_READS joined with `+`, `new_api` on 2023+ stock
 * builds; Whatsminer v3: its three frames on one 4433 connection), each reply only JSON.parse'd. It leaves out
 * what the agent adds on top (detail refresh on first sight, then every detailEveryCycles per miner and on reboot,
 * identity change, return from offline or an operation; the extra reads of abnormal units,
 * normalising, flags, JSON snapshots, spooling) — that is the agent's overhead the ratio measures.
 */
function bareFamilyPlan(ids: BareIdentity[]): BarePlanItem[] {
  const frame = (body: object): Buffer => {
    const json = Buffer.from(JSON.stringify(body), 'utf8');
    const head = Buffer.alloc(4);
    head.writeUInt32LE(json.length, 0);
    return Buffer.concat([head, json]);
  };
  const v3Frames = WHATSMINER_V3_CYCLE_READS.map(([cmd, param]) => frame({ cmd, param }));
  const joined = (reads: readonly string[], extra?: Record<string, unknown>) => buildRequest(reads.join('+'), { extra });
  return ids.map((m): BarePlanItem => {
    switch (m.family) {
      case 'antminer-stock':
        return { ip: m.ip, rpc: joined(ANTMINER_CYCLE_READS, m.newApi ? NEW_API : undefined) };
      case 'whatsminer':
        return m.whatsminerApi === 'v3' ? { ip: m.ip, v3: v3Frames } : { ip: m.ip, rpc: joined(WHATSMINER_V2_CYCLE_READS), whenJson: true };
      case 'braiins':
        return { ip: m.ip, rpc: joined(BRAIINS_CYCLE_READS) };
      case 'vnish':
        return { ip: m.ip, rpc: joined(VNISH_CYCLE_READS) };
      default:
        return { ip: m.ip, rpc: joined(LUXOS_CYCLE_READS) };
    }
  });
}

/** A bare client's connection: settled once (ok or not) by `finish`, which closes it; an error or 10 s settle it as failed. */
function bareSocket(host: string, port: number, resolve: (ok: boolean) => void): { sock: net.Socket; finish: (ok: boolean) => void } {
  let done = false;
  const sock = net.connect({ host, port });
  const finish = (ok: boolean): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    sock.destroy();
    resolve(ok);
  };
  const timer = setTimeout(() => finish(false), 10_000);
  sock.on('error', () => finish(false));
  return { sock, finish };
}

/** Bare Whatsminer v3 exchange: one connection, each frame sent after the previous reply (4-byte LE length + JSON). */
function bareV3Exchange(host: string, port: number, frames: Buffer[]): Promise<boolean> {
  return new Promise((resolve) => {
    let buf: Buffer = Buffer.alloc(0);
    let sent = 0;
    const { sock, finish } = bareSocket(host, port, resolve);
    sock.once('connect', () => sock.write(frames[sent++]!));
    sock.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      while (buf.length >= 4) {
        const n = buf.readUInt32LE(0);
        if (buf.length < 4 + n) return;
        try {
          JSON.parse(buf.subarray(4, 4 + n).toString('utf8'));
        } catch {
          finish(false);
          return;
        }
        buf = buf.subarray(4 + n);
        if (sent >= frames.length) {
          finish(true);
          return;
        }
        sock.write(frames[sent++]!);
      }
    });
    sock.once('close', () => finish(false));
  });
}

/** One bare exchange: connect, send the request (`{"command":"summary"}`), read until NUL or close, JSON.parse. */
function bareExchange(host: string, port: number, request: string, whenJson = false): Promise<boolean> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const { sock, finish } = bareSocket(host, port, resolve);
    const parse = (): void => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        finish(true);
      } catch {
        finish(false);
      }
    };
    sock.once('connect', () => sock.write(request));
    sock.on('data', (buf: Buffer) => {
      const nul = buf.indexOf(0);
      if (nul < 0) {
        chunks.push(buf);
        // btminer may keep the socket open after its reply (no NUL): done once the buffer is a JSON document
        if (whenJson && buf[buf.length - 1] === 0x7d /* } */) {
          try {
            JSON.parse(Buffer.concat(chunks).toString('utf8'));
            finish(true);
          } catch {
            // not complete yet
          }
        }
        return;
      }
      chunks.push(buf.subarray(0, nul));
      parse();
    });
    sock.once('end', parse);
    sock.once('close', parse);
  });
}

/** The bare client's pool: `concurrency` workers taking the next item, nothing else; counts answered and failed. */
async function barePool<T>(items: readonly T[], concurrency: number, exchange: (item: T) => Promise<boolean>): Promise<{ ok: number; failed: number }> {
  let next = 0;
  let ok = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      if (await exchange(items[next++]!)) ok++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return { ok, failed };
}

async function runBare(spec: ChildSpec): Promise<void> {
  const concurrency = AgentConfig.parse({}).pollConcurrency;
  const ips: string[] = [];
  for (const ip of iterateRanges(rangesFromSpecs([{ ipBegin: spec.cidr }]))) {
    if (ips.length >= spec.miners) break;
    ips.push(ip);
  }
  // stepped: the per-family reference first, alternating with the agent's cycles; the rest after them
  if (spec.bareFamily && spec.stepped) await runBareFamily(spec, concurrency);
  for (const command of spec.bareCommands) {
    const request = JSON.stringify({ command });
    for (let i = 1; i <= spec.cycles; i++) {
      await measure(`bare ${command} cycle ${i}`, () => barePool(ips, concurrency, (ip) => bareExchange(ip, spec.ports.rpc, request)));
    }
  }
  if (spec.bareFamily && !spec.stepped) await runBareFamily(spec, concurrency);
}

/** The per-family reference over the fleet the agent child identified (bareFamilyPlan). */
async function runBareFamily(spec: ChildSpec, concurrency: number): Promise<void> {
  const file = identityFile(spec);
  if (!existsSync(file)) throw new Error(`bare per-family reference: ${file} missing (the agent child writes it after its last scan)`);
  const plan = bareFamilyPlan(JSON.parse(readFileSync(file, 'utf8')) as BareIdentity[]);
  const exchanges: Record<string, number> = {};
  for (const p of plan) exchanges['rpc' in p ? 'rpc' : 'v3'] = (exchanges['rpc' in p ? 'rpc' : 'v3'] ?? 0) + 1;
  for (let i = 1; i <= spec.cycles; i++) {
    await step(spec, `bare per-family cycle ${i}`);
    await measure(`bare per-family cycle ${i}`, async () => {
      const r = await barePool(plan, concurrency, (p) => ('rpc' in p ? bareExchange(p.ip, spec.ports.rpc, p.rpc, p.whenJson) : bareV3Exchange(p.ip, spec.ports.whatsminerV3, p.v3)));
      return { ...r, extra: { rpcExchanges: exchanges['rpc'] ?? 0, v3Connections: exchanges['v3'] ?? 0 } };
    });
  }
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '') as ChildSpec;
  console.log(`@@start ${JSON.stringify({ rssMiB: process.memoryUsage.rss() / MiB })}`);
  if (spec.mode === 'agent') await runAgent(spec);
  else await runBare(spec);
  console.log('@@done');
}

// Bundled like the packaged agent (agent.bench.ts), this file is also its poll threads' code.
if (isPollWorkerThread()) startPollWorker();
else
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
