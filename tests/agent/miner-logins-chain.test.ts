/**
 * Miner logins from the console to the miner, over real sockets: a stock Antminer whose web password is no longer
 * root/root is read without its web pages (error -401, no SN) until the farm's login is saved through the user API;
 * from the next cycle the agent, which takes its configuration from the server every cycle, logs in with it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FarmAgent } from '@agent/farm-agent';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { buildApp } from '@server/app';
import { startFleet, type Fleet } from '@sim/fleet';
import { Client, type TestApp, createFarm, createTestApp, listMiners, setupAdmin } from '../server/harness';

const CIDR = '127.35.0.0/24';
const MINERS = 12;
const PASSWORD = 'Farm-9x!';

let t: TestApp;
let fleet: Fleet;
let server: FastifyInstance;
let admin: Client;
let dataDir = '';
let secret = '';

beforeAll(async () => {
  fleet = await startFleet({ miners: MINERS, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 35, tickMs: 250 });
  t = await createTestApp();
  admin = await setupAdmin(t.app);
  secret = (await createFarm(admin, 'logins-chain')).secret;
  expect((await admin.post('/api/scanip/batchSave', { agentKey: 'logins-chain', scanIpList: `127.35.0.1-127.35.0.${MINERS}-fleet` })).statusCode).toBe(200);
  const settings = await admin.post('/api/agent/updateAgentSettings', {
    agentKey: 'logins-chain',
    rpcPort: String(fleet.ports.rpc),
    webPort: String(fleet.ports.web),
    whatsminerV3Port: String(fleet.ports.whatsminerV3),
  });
  expect(settings.statusCode).toBe(200);
  server = await buildApp({ config: t.config, db: t.db, logger: false });
  await server.listen({ host: '127.0.0.1', port: 0 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-logins-'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  await t?.close();
  await fleet?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it('a miner with a changed password is read in full once the farm saves its login', async () => {
  const miner = fleet.miners.find((m) => m.family === 'antminer-stock');
  if (!miner) throw new Error('no stock Antminer in the fleet');
  miner.setPassword(PASSWORD);
  const addr = server.server.address();
  const port = addr && typeof addr === 'object' ? addr.port : 0;
  const agent = new FarmAgent({
    serverUrl: `http://127.0.0.1:${port}`,
    agentKey: 'logins-chain',
    secret,
    dataDir,
    log: () => undefined,
    timeouts: { connectMs: 1000, rpcMs: 4000, webMs: 4000, uplinkMs: 3000 },
  });
  const readingOf = async (): Promise<MinerSnapshot | undefined> => {
    await agent.runCycle();
    return (await agent.poller.lastSnapshot(miner.ip)) ?? undefined;
  };

  const before = await readingOf();
  expect(before?.online).toBe(true);
  expect(before?.errorCodes.map((e) => e.code)).toContain(-401);
  const listed = (await listMiners(admin, 'logins-chain', { keyword: miner.ip })).list.find((r) => r.ip === miner.ip);
  expect(listed?.errorCode).toContain('-401');

  const saved = await admin.post('/api/agent/minerLogins/save', { agentKey: 'logins-chain', family: 'antminer', user: '', password: PASSWORD });
  expect(saved.statusCode).toBe(200);
  const after = await readingOf();
  expect(after?.errorCodes.map((e) => e.code)).not.toContain(-401);
  expect(after?.sn).toBe(miner.sn);
  const relisted = (await listMiners(admin, 'logins-chain', { keyword: miner.ip })).list.find((r) => r.ip === miner.ip);
  expect(relisted?.errorCode ?? '').not.toContain('-401');
  expect(relisted?.sn).toBe(miner.sn);
  agent.stop();
}, 90_000);
