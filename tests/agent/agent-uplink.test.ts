import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@sim/fleet';
import { AGENT_UPLINK_PREFIX, SnapshotBatch, TaskResultReport, parseAgentAuthorization, type AgentConfigInput } from '@shared/schemas/agent-uplink';
import { FarmAgent } from '@agent/farm-agent';

/** Agent ↔ fake uplink server (node http) on 127.32.0.0/24: outage buffering, ordering, tasks, restart. */

const CIDR = '127.32.0.0/24';
let fleet: Fleet;
let server: http.Server;
let port = 0;
let dataDir: string;
const received: SnapshotBatch[] = [];
const duplicates: number[] = [];
const heartbeats: unknown[] = [];
const taskReports: Array<{ id: string; body: TaskResultReport }> = [];
let tasks: unknown[] = [];
let authFailures = 0;
let pollIntervalSec = 1;

function send(res: http.ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(status === 200 ? { code: 0, msg: 'success', data } : { code: status, msg: 'error', data: null }));
}

function config(): AgentConfigInput {
  return {
    pollIntervalSec,
    offlineAfterMissed: 3,
    scanEveryCycles: 100,
    scanRanges: [{ ipBegin: '127.32.0.1', ipEnd: '127.32.0.40' }],
    poolWhitelist: [],
    batch: { packetSize: 10, pauseMs: 0, concurrency: 10 },
    ports: { rpc: fleet.ports.rpc, web: fleet.ports.web, whatsminerV3: fleet.ports.whatsminerV3 },
  };
}

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const auth = parseAgentAuthorization(req.headers.authorization);
    if (!auth || auth.agentKey !== 'farm32' || auth.secret !== 's3cret') {
      authFailures++;
      return send(res, 401, null);
    }
    const url = (req.url ?? '').replace(AGENT_UPLINK_PREFIX, '');
    let body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body);
    if (req.method === 'GET' && url === '/config') return send(res, 200, config());
    if (req.method === 'POST' && url === '/snapshots') {
      const b = SnapshotBatch.parse(JSON.parse(body.toString()));
      if (received.some((x) => x.batchSeq === b.batchSeq)) {
        duplicates.push(b.batchSeq);
        return send(res, 200, { accepted: 0, duplicate: true });
      }
      received.push(b);
      return send(res, 200, { accepted: b.snapshots.length, duplicate: false });
    }
    if (req.method === 'POST' && url === '/heartbeat') {
      heartbeats.push(JSON.parse(body.toString()));
      return send(res, 200, { serverTime: new Date().toISOString() });
    }
    if (req.method === 'GET' && url === '/tasks') return send(res, 200, tasks);
    const m = /^\/tasks\/([^/]+)\/results$/.exec(url);
    if (req.method === 'POST' && m) {
      taskReports.push({ id: decodeURIComponent(m[1]!), body: TaskResultReport.parse(JSON.parse(body.toString())) });
      return send(res, 200, { received: 1 });
    }
    send(res, 404, null);
  });
}

function up(): Promise<void> {
  server = http.createServer(handler);
  return new Promise((r) => server.listen(port, '127.0.0.1', () => {
    port = (server.address() as { port: number }).port;
    r();
  }));
}
function down(): Promise<void> {
  return new Promise((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
}

function newAgent(secret = 's3cret', log: (line: string) => void = () => undefined): FarmAgent {
  return new FarmAgent({
    serverUrl: `http://127.0.0.1:${port}`,
    agentKey: 'farm32',
    secret,
    dataDir,
    log,
    timeouts: { connectMs: 1000, rpcMs: 4000, webMs: 4000, uplinkMs: 3000 },
  });
}

beforeAll(async () => {
  fleet = await startFleet({ miners: 30, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 32, rebootDarkMs: 1000 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-agent-'));
  await up();
});

afterAll(async () => {
  await down().catch(() => undefined);
  await fleet?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('uplink outage and recovery', () => {
  it('a server refusing for 5 cycles then accepting receives every cycle once, in order', async () => {
    const lines: string[] = [];
    const agent = newAgent('s3cret', (l) => lines.push(l));
    const first = await agent.runCycle();
    expect(first.configSource).toBe('server');
    expect(first.server).toBe('ok');
    expect(first.scan?.found).toBe(30);
    expect(first.uploaded).toBe(1);
    await down();
    for (let i = 0; i < 5; i++) {
      const r = await agent.runCycle();
      expect(r.configSource).toBe('cache');
      expect(r.server).toBe('unreachable');
      expect(r.uploaded).toBe(0);
      expect(r.poll.ok).toBe(30); // keeps polling during the outage
    }
    expect(agent.buffer.count).toBe(5);
    // The operator reads once that the server is away and what the agent does meanwhile, not five times.
    const away = lines.filter((l) => l.startsWith('cannot reach the server'));
    expect(away).toHaveLength(1);
    expect(away[0]).toContain('keeps their readings on disk');
    expect(agent.serverNote()).toMatch(/^; server unreachable/);
    await up();
    const back = await agent.runCycle();
    expect(back.server).toBe('ok');
    expect(back.uploaded).toBe(6);
    expect(back.buffered).toBe(0);
    expect(lines.filter((l) => l.includes('accepts the agent again'))).toEqual([expect.stringContaining('sending the 5 cycle(s) of readings kept on disk')]);
    expect(agent.serverNote()).toBe('');
    await agent.runCycle();
    expect(received.map((b) => b.batchSeq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(duplicates).toEqual([]);
    for (const b of received) {
      expect(b.snapshots.length).toBe(30);
      expect(b.rolledUp).toBeUndefined();
    }
    // cycle times are the real ones, in order
    const starts = received.map((b) => Date.parse(b.cycleStartedAt));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(heartbeats.length).toBeGreaterThanOrEqual(3);
    expect(heartbeats.at(-1)).toMatchObject({ bufferedBatches: 0, miners: 30 });
  }, 40000);

  it('batchSeq survives an agent restart (no reuse, no gap)', async () => {
    const agent = newAgent();
    const r = await agent.runCycle();
    expect(r.batchSeq).toBe(9);
    expect(received.at(-1)?.batchSeq).toBe(9);
  }, 20000);

  it('pulls tasks, runs them and posts per-miner results (done at the end)', async () => {
    const agent = newAgent();
    await agent.runCycle();
    const stock = fleet.miners.filter((m) => m.family === 'antminer-stock').slice(0, 3);
    tasks = [
      { id: 'task-blink', op: 'blink-on', params: {}, targets: [...stock.map((m) => ({ ip: m.ip })), { ip: '127.32.0.200' }] },
      { id: 'task-bad', op: 'adjust-hashrate', params: { percent: 20 }, targets: [{ ip: stock[0]!.ip }] },
    ];
    await agent.pullTasks();
    await agent.idle();
    await agent.pullTasks(); // already done: not run twice
    await agent.idle();
    const blink = taskReports.filter((t) => t.id === 'task-blink');
    expect(blink.at(-1)?.body.done).toBe(true);
    const results = blink.flatMap((t) => t.body.results);
    expect(results).toHaveLength(4);
    expect(results.filter((r) => r.ok).map((r) => r.ip).sort()).toEqual(stock.map((m) => m.ip).sort());
    expect(results.find((r) => r.ip === '127.32.0.200')).toEqual({ ip: '127.32.0.200', ok: false, reason: 'unknown-miner' });
    expect(stock.every((m) => m.blink)).toBe(true);
    // invalid params are rejected as a whole and closed
    expect(taskReports.find((t) => t.id === 'task-bad')?.body).toEqual({ results: [], done: true });
    tasks = [];
  }, 20000);

  it('asks for tasks every few seconds between its cycles: a task starts long before the next cycle', async () => {
    pollIntervalSec = 60;
    const agent = new FarmAgent({ serverUrl: `http://127.0.0.1:${port}`, agentKey: 'farm32', secret: 's3cret', dataDir, log: () => undefined, taskPollMs: 200 });
    const before = received.length;
    const running = agent.run();
    try {
      await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThan(before);
      const cycleAt = Date.now();
      const m = fleet.miners.find((x) => x.family === 'antminer-stock')!;
      tasks = [{ id: 'task-between', op: 'blink-off', params: {}, targets: [{ ip: m.ip }] }];
      await expect.poll(() => taskReports.some((t) => t.id === 'task-between' && t.body.done), { timeout: 5000, interval: 100 }).toBe(true);
      // within a few task polls, not at the next cycle 60 s later
      expect(Date.now() - cycleAt).toBeLessThan(5000);
      expect(received.length).toBe(before + 1);
    } finally {
      tasks = [];
      pollIntervalSec = 1;
      agent.stop();
      await running;
    }
  }, 30_000);

  it('a wrong secret is refused by the server and the agent keeps buffering', async () => {
    const before = authFailures;
    const lines: string[] = [];
    const agent = newAgent('wrong-secret-0123456789', (l) => lines.push(l));
    const r = await agent.runCycle();
    expect(authFailures).toBeGreaterThan(before);
    expect(r.configSource).toBe('cache');
    expect(r.server).toBe('refused');
    expect(r.uploaded).toBe(0);
    expect(agent.buffer.count).toBe(1);
    await agent.runCycle();
    // Said once, in words the operator can act on, naming the key and never the secret.
    const refused = lines.filter((l) => l.includes('refused the agent key'));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain('"farm32"');
    expect(refused[0]).toContain('Check --key and --secret');
    expect(lines.join('\n')).not.toContain('wrong-secret-0123456789');
    expect(agent.serverNote()).toMatch(/^; server refuses the key or secret/);
  }, 20000);
});
