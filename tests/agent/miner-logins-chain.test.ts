/**
 * Miner logins from the console to the miner, over real sockets: a stock Antminer whose web password is no longer
 * root/root is read without its web pages (error -401, no SN) until the farm's login is saved through the user API;
 * from the next cycle the agent, which takes its configuration from the server every cycle, logs in with it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { type AgentChain, startAgentChain } from '../support/agent-chain';
import { listMiners } from '../server/harness';

const PASSWORD = 'Farm-9x!';

let chain: AgentChain;

beforeAll(async () => {
  chain = await startAgentChain({ cidr: '127.35.0.0/24', miners: 12, agentKey: 'logins-chain', fleet: { seed: 35, tickMs: 250 } });
}, 60_000);

afterAll(async () => chain?.close());

it('a miner with a changed password is read in full once the farm saves its login', async () => {
  const { admin, fleet } = chain;
  const miner = fleet.miners.find((m) => m.family === 'antminer-stock');
  if (!miner) throw new Error('no stock Antminer in the fleet');
  miner.setPassword(PASSWORD);
  const agent = chain.newAgent();
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
