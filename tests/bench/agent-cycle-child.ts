/**
 * The agent side of the agent benchmark, run as its own process (started by agent.bench.ts with the heap
 * flags src/agent/main.ts re-executes the agent with), so its RSS and CPU time are the agent's alone.
 *
 *   node --max-old-space-size=192 --max-semi-space-size=8 --import tsx tests/bench/agent-cycle-child.ts '<spec JSON>'
 *
 * mode "agent": a FarmAgent (real config defaults: scan/poll concurrency, timeouts) scans each range of
 * `scans` with the real scanner, hands the last scan's miners to its real Poller, then runs `cycles` poll
 * cycles exactly as FarmAgent.runCycle does (json snapshots) and spools each batch to disk (gzip).
 * mode "bare": the physical limit — for each address, TCP connect, `{"command":"summary"}`, read until
 * NUL/close, JSON.parse; nothing else, at the same concurrency (also with the command the agent sends a
 * stock Antminer, `summary+pools+stats`, when listed in `bareCommands`).
 *
 * At start (modules loaded, nothing done) it prints `@@start {"rssMiB":…}`; then every phase prints one line
 * `@@phase {json}` to stdout: wall time, CPU time (process.cpuUsage), RSS peak
 * during the phase (VmHWM after resetting it through /proc/self/clear_refs; sampled when that is not
 * allowed), RSS and heap after.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { AgentConfig, type MinerPorts } from '@shared/schemas/agent-uplink';
import { AGENT_VERSION, FarmAgent } from '@agent/farm-agent';
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
  miners: number;
  cycles: number;
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
      if (s === last) agent.poller.upsertMiners(r.miners);
      return { ok: r.miners.length, failed: Math.max(0, s.expected - r.miners.length), extra: { scanned: r.scanned, unreachable: r.unreachable } };
    });
  }

  for (let i = 1; i <= spec.cycles; i++) {
    await measure(`poll cycle ${i}`, async () => {
      const poll = await agent.poller.pollCycle({ offlineAfterMissed: c.offlineAfterMissed, poolWhitelist: c.poolWhitelist, concurrency: c.pollConcurrency, json: true });
      const t0 = performance.now();
      const batch = agent.buffer.enqueueJson({ agentVersion: AGENT_VERSION, cycleStartedAt: poll.startedAt, cycleDurationMs: poll.durationMs }, poll.snapshotsJson);
      const spoolMs = performance.now() - t0;
      return { ok: poll.ok, failed: poll.failed, extra: { pollMs: poll.durationMs, spoolMs, snapshots: poll.snapshotsJson.length, batchSeq: batch.batchSeq } };
    });
  }
}

/** One bare exchange: connect, send the request (`{"command":"summary"}`), read until NUL or close, JSON.parse. */
function bareExchange(host: string, port: number, request: string): Promise<boolean> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const sock = net.connect({ host, port });
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(ok);
    };
    const parse = (): void => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        finish(true);
      } catch {
        finish(false);
      }
    };
    const timer = setTimeout(() => finish(false), 10_000);
    sock.once('connect', () => sock.write(request));
    sock.on('data', (buf: Buffer) => {
      const nul = buf.indexOf(0);
      if (nul < 0) {
        chunks.push(buf);
        return;
      }
      chunks.push(buf.subarray(0, nul));
      parse();
    });
    sock.once('end', parse);
    sock.once('close', parse);
    sock.on('error', () => finish(false));
  });
}

async function runBare(spec: ChildSpec): Promise<void> {
  const concurrency = AgentConfig.parse({}).pollConcurrency;
  const ips: string[] = [];
  for (const ip of iterateRanges(rangesFromSpecs([{ ipBegin: spec.cidr }]))) {
    if (ips.length >= spec.miners) break;
    ips.push(ip);
  }
  for (const command of spec.bareCommands) {
    const request = JSON.stringify({ command });
    for (let i = 1; i <= spec.cycles; i++) {
      await measure(`bare ${command} cycle ${i}`, async () => {
        let next = 0;
        let ok = 0;
        let failed = 0;
        const worker = async (): Promise<void> => {
          while (next < ips.length) {
            const ip = ips[next++]!;
            if (await bareExchange(ip, spec.ports.rpc, request)) ok++;
            else failed++;
          }
        };
        await Promise.all(Array.from({ length: Math.min(concurrency, ips.length) }, worker));
        return { ok, failed };
      });
    }
  }
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '') as ChildSpec;
  console.log(`@@start ${JSON.stringify({ rssMiB: process.memoryUsage.rss() / MiB })}`);
  if (spec.mode === 'agent') await runAgent(spec);
  else await runBare(spec);
  console.log('@@done');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
