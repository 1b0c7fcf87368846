/**
 * History log over real sockets: simulator fleet ← agent → the real server (cloned PGlite). The console asks
 * for a miner's log (POST /api/miner/historyLog); the agent picks the task, reads the log from the simulated
 * Antminer's web CGI (get_kernel_log.cgi on newer firmware, log.cgi on older, digest auth) or a VNish unit's web API
 * (/api/v1/logs/miner), uploads it, and the status answers done with the text; a family without a log reads as
 * failed with the agent's reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FarmAgent } from '@agent/farm-agent';
import { buildApp } from '@server/app';
import { startFleet, type Fleet } from '@sim/fleet';
import type { HistoryLogInfo } from '@shared/schemas/miner-records';
import { Client, type TestApp, body, createFarm, createTestApp, setupAdmin } from '../server/harness';

const CIDR = '127.54.0.0/24';
const MINERS = 12;
const FARM = 'log-farm';

let t: TestApp;
let fleet: Fleet;
let server: FastifyInstance;
let admin: Client;
let agent: FarmAgent;
let dataDir = '';

beforeAll(async () => {
  fleet = await startFleet({ miners: MINERS, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 54, tickMs: 250, mix: { 'antminer-stock': 8, whatsminer: 2, vnish: 2 } });
  t = await createTestApp();
  admin = await setupAdmin(t.app);
  const { secret } = await createFarm(admin, FARM);
  expect((await admin.post('/api/scanip/batchSave', { agentKey: FARM, scanIpList: `127.54.0.1-127.54.0.${MINERS}-log fleet` })).statusCode).toBe(200);
  const settings = await admin.post('/api/agent/updateAgentSettings', {
    agentKey: FARM,
    pollIntervalSec: '10',
    rpcPort: String(fleet.ports.rpc),
    webPort: String(fleet.ports.web),
    whatsminerV3Port: String(fleet.ports.whatsminerV3),
  });
  expect(settings.statusCode, settings.body).toBe(200);
  server = await buildApp({ config: t.config, db: t.db, logger: false });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const addr = server.server.address();
  const port = addr && typeof addr === 'object' ? addr.port : 0;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-log-'));
  agent = new FarmAgent({ serverUrl: `http://127.0.0.1:${port}`, agentKey: FARM, secret, dataDir, log: () => undefined, timeouts: { connectMs: 1000, rpcMs: 4000, webMs: 4000, uplinkMs: 3000 } });
  const first = await agent.runCycle();
  expect(first.scan?.found).toBe(MINERS);
}, 90_000);

afterAll(async () => {
  await server?.close();
  await t?.close();
  await fleet?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function requestLog(ip: string): Promise<HistoryLogInfo> {
  const res = await admin.post('/api/miner/historyLog', { agentKey: FARM, ip });
  expect(res.statusCode, res.body).toBe(200);
  const { id } = body<{ id: string }>(res).data;
  const deadline = Date.now() + 20_000;
  let info: HistoryLogInfo | null = null;
  while (Date.now() < deadline) {
    await agent.pullTasks();
    await agent.idle();
    info = body<HistoryLogInfo>(await admin.get('/api/miner/historyLog/status', { agentKey: FARM, id })).data;
    if (info.status === 'done' || info.status === 'failed') return info;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`history log not finished: ${JSON.stringify(info)}`);
}

describe('history log', () => {
  it("reads a stock Antminer's log through its web CGI and shows it in the console", async () => {
    const miners = fleet.miners.filter((m) => m.family === 'antminer-stock');
    expect(miners.length).toBeGreaterThan(0);
    for (const m of miners.slice(0, 2)) {
      m.logLines.push(`Nov 22 05:00:00 history-log test line for ${m.ip}`);
      const info = await requestLog(m.ip);
      expect(info.status, JSON.stringify(info)).toBe('done');
      expect(info.source).toMatch(/^\/cgi-bin\/(get_kernel_log|log)\.cgi$/);
      expect(info.content).toContain('Booting Linux on physical CPU 0x0');
      expect(info.content).toContain(`history-log test line for ${m.ip}`);
      expect(info.size).toBe(Buffer.byteLength(info.content ?? ''));
    }
  }, 60_000);

  it("reads a VNish unit's mining log over its web API (no login) and shows it in the console", async () => {
    const m = fleet.miners.find((x) => x.family === 'vnish');
    expect(m).toBeDefined();
    m!.log('chain 1: 108 chips found, history-log test line');
    const info = await requestLog(m!.ip);
    expect(info.status, JSON.stringify(info)).toBe('done');
    expect(info.source).toBe('/api/v1/logs/miner');
    expect(info.content).toContain('history-log test line');
    expect(info.size).toBe(Buffer.byteLength(info.content ?? ''));
  }, 60_000);

  it('reports why when the family has no log over the web', async () => {
    const other = fleet.miners.find((m) => m.family === 'whatsminer');
    expect(other).toBeDefined();
    const info = await requestLog(other!.ip);
    expect(info).toMatchObject({ status: 'failed', content: null });
    expect(info.reason).toMatch(/^unsupported-op/);
  }, 60_000);
});
