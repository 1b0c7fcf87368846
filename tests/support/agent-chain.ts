/**
 * The whole chain for agent tests over real sockets: a simulated fleet, the real server on a cloned PGlite listening
 * on loopback, a farm set up through the user API (scan range over the fleet, the fleet's ports), and agents of that
 * farm pointed at the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { FarmAgent } from '@agent/farm-agent';
import { buildApp } from '@server/app';
import { startFleet, type Fleet, type FleetOptions } from '@sim/fleet';
import { Client, type TestApp, createFarm, createTestApp, setupAdmin } from '../server/harness';

export interface AgentChain {
  t: TestApp;
  admin: Client;
  fleet: Fleet;
  server: FastifyInstance;
  agentKey: string;
  secret: string;
  /** A new agent of the farm (its data directory is the chain's). */
  newAgent(): FarmAgent;
  close(): Promise<void>;
}

/** `fleet`: the fleet's options (ports 0 and the cidr are set here); `settings`: more agent settings of the farm. */
export async function startAgentChain(o: { cidr: string; miners: number; agentKey: string; fleet: Partial<FleetOptions>; settings?: Record<string, string> }): Promise<AgentChain> {
  const fleet = await startFleet({ ...o.fleet, miners: o.miners, cidr: o.cidr, rpcPort: 0, webPort: 0, whatsminerV3Port: 0 });
  const t = await createTestApp();
  const admin = await setupAdmin(t.app);
  const { secret } = await createFarm(admin, o.agentKey);
  const first = fleet.miners[0]!.ip;
  const last = fleet.miners[fleet.miners.length - 1]!.ip;
  expect((await admin.post('/api/scanip/batchSave', { agentKey: o.agentKey, scanIpList: `${first}-${last}-test fleet` })).statusCode).toBe(200);
  const settings = await admin.post('/api/agent/updateAgentSettings', {
    agentKey: o.agentKey,
    ...o.settings,
    rpcPort: String(fleet.ports.rpc),
    webPort: String(fleet.ports.web),
    whatsminerV3Port: String(fleet.ports.whatsminerV3),
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const server = await buildApp({ config: t.config, db: t.db, logger: false });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const addr = server.server.address();
  const port = addr && typeof addr === 'object' ? addr.port : 0;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hf-${o.agentKey}-`));
  return {
    t,
    admin,
    fleet,
    server,
    agentKey: o.agentKey,
    secret,
    newAgent: () =>
      new FarmAgent({ serverUrl: `http://127.0.0.1:${port}`, agentKey: o.agentKey, secret, dataDir, log: () => undefined, timeouts: { connectMs: 1000, rpcMs: 4000, webMs: 4000, uplinkMs: 3000 } }),
    close: async () => {
      await server.close();
      await t.close();
      await fleet.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
