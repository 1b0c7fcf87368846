/**
 * The whole chain over real sockets: simulator fleet ← agent → the real server (on a cloned PGlite).
 * A farm set up through the user API; the agent scans, polls and uploads; the server goes down for 5
 * cycles and comes back: every cycle arrives once, in order (and the console shows the agent's computer); a reboot queued from the console reaches
 * the simulated miner, which drops and returns, and the console sees the per-miner result.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostInfo } from '@shared/schemas/farm';
import { FarmAgent } from '@agent/farm-agent';
import { buildApp } from '@server/app';
import { startFleet, type Fleet } from '@sim/fleet';
import { Client, type TestApp, body, createFarm, createTestApp, setupAdmin } from '../server/harness';

const CIDR = '127.33.0.0/24';
const MINERS = 24;

let t: TestApp;
let fleet: Fleet;
let server: FastifyInstance;
let port = 0;
let admin: Client;
let secret = '';
let dataDir = '';
let agent: FarmAgent;

async function listen(): Promise<void> {
  server = await buildApp({ config: t.config, db: t.db, logger: false });
  await server.listen({ host: '127.0.0.1', port });
  const addr = server.server.address();
  if (addr && typeof addr === 'object') port = addr.port;
}

function newAgent(): FarmAgent {
  return new FarmAgent({
    serverUrl: `http://127.0.0.1:${port}`,
    agentKey: 'chain-farm',
    secret,
    dataDir,
    log: () => undefined,
    timeouts: { connectMs: 1000, rpcMs: 4000, webMs: 4000, uplinkMs: 3000 },
  });
}

beforeAll(async () => {
  fleet = await startFleet({ miners: MINERS, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 33, rebootDarkMs: 1500, tickMs: 250 });
  t = await createTestApp();
  admin = await setupAdmin(t.app);
  secret = (await createFarm(admin, 'chain-farm')).secret;
  const ranges = await admin.post('/api/scanip/batchSave', { agentKey: 'chain-farm', scanIpList: `127.33.0.1-127.33.0.${MINERS}-test fleet` });
  expect(ranges.statusCode).toBe(200);
  const settings = await admin.post('/api/agent/updateAgentSettings', {
    agentKey: 'chain-farm',
    pollIntervalSec: '10',
    offlineAfterMissed: '3',
    packetSize: '10',
    pauseMs: '100',
    rpcPort: String(fleet.ports.rpc),
    webPort: String(fleet.ports.web),
    whatsminerV3Port: String(fleet.ports.whatsminerV3),
  });
  expect(settings.statusCode).toBe(200);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-chain-'));
  await listen();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await t?.close();
  await fleet?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('agent ↔ server ↔ simulator', () => {
  it('survives a 5-cycle server outage: every cycle stored once, in order', async () => {
    agent = newAgent();
    const first = await agent.runCycle();
    expect(first.scan?.found).toBe(MINERS);
    expect(first.uploaded).toBe(1);
    await server.close();
    for (let i = 0; i < 5; i++) {
      const r = await agent.runCycle();
      expect(r.uploaded).toBe(0);
      expect(r.poll.ok).toBe(MINERS);
    }
    await listen();
    const back = await agent.runCycle();
    expect(back.uploaded).toBe(6);
    expect(back.buffered).toBe(0);
    const batches = await t.db.selectFrom('snapshot_batches').selectAll().where('agent_key', '=', 'chain-farm').orderBy('received_at').orderBy('batch_seq').execute();
    expect(batches.map((b) => Number(b.batch_seq))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(batches.every((b) => b.miner_count === MINERS)).toBe(true);
    const cycles = batches.map((b) => new Date(b.cycle_started_at).getTime());
    expect([...cycles].sort((a, b) => a - b)).toEqual(cycles);
    // The console sees the farm's miners and its NUC online.
    const list = body<{ total: number }>(await admin.get('/api/miner/list', { agentKey: 'chain-farm' }));
    expect(list.data.total).toBe(MINERS);
    const status = body<{ isOnline: boolean }>(await admin.get('/api/agent/status', { agentKey: 'chain-farm' }));
    expect(status.data.isOnline).toBe(true);
    // … and the computer the agent runs on (its heartbeat's host report).
    const host = body<HostInfo>(await admin.get('/api/agent/hostInfo/detail', { agentKey: 'chain-farm' })).data;
    expect(host).toMatchObject({ hostname: os.hostname(), cpuCores: os.availableParallelism(), memoryMb: Math.round(os.totalmem() / 2 ** 20) });
    expect(host.os).toMatch(new RegExp(`, ${os.arch()}$`));
    expect(host.diskFreeMb).toBeGreaterThan(0);
    expect(host.uptimeSec).toBeGreaterThan(0);
  }, 90_000);

  it('a reboot queued in the console reaches the miner, which drops and returns', async () => {
    const target = fleet.miners[0]!;
    const res = await admin.post('/api/minerv2/batchReboot', { agentKey: 'chain-farm', ips: target.ip });
    expect(res.statusCode).toBe(200);
    const taskId = body<{ taskId: string }>(res).data.taskId;
    await agent.pullTasks();
    const deadline = Date.now() + 20_000;
    let progress = { done: 0, total: 1, successes: [], failures: [] } as { done: number; total: number; successes: string[]; failures: unknown[] };
    while (Date.now() < deadline) {
      await agent.pullTasks();
      progress = body<typeof progress>(await admin.get('/api/minerv2/batchProgress', { agentKey: 'chain-farm', taskId })).data;
      if (progress.done >= progress.total) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(progress).toMatchObject({ done: 1, total: 1, successes: [target.ip], failures: [] });
    expect(target.snapshot().state).not.toBe('online');
    await new Promise((r) => setTimeout(r, 2000));
    expect(target.snapshot().state).toBe('online');
  }, 60_000);
});
