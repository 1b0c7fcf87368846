/**
 * History log over real sockets: simulator fleet ← agent → the real server (cloned PGlite). The console asks
 * for a miner's log (POST /api/miner/historyLog); the agent picks the task, reads the log from the simulated
 * Antminer's web CGI (get_kernel_log.cgi on newer firmware, log.cgi on older, digest auth) or a VNish unit's web API
 * (/api/v1/logs/miner), uploads it, and the status answers done with the text; a family without a log reads as
 * failed with the agent's reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FarmAgent } from '@agent/farm-agent';
import type { HistoryLogInfo } from '@shared/schemas/miner-records';
import { type AgentChain, startAgentChain } from '../support/agent-chain';
import { body } from '../server/harness';

const CIDR = '127.54.0.0/24';
const MINERS = 12;
const FARM = 'log-farm';

let chain: AgentChain;
let agent: FarmAgent;

beforeAll(async () => {
  chain = await startAgentChain({
    cidr: CIDR,
    miners: MINERS,
    agentKey: FARM,
    fleet: { seed: 54, tickMs: 250, mix: { 'antminer-stock': 8, whatsminer: 2, vnish: 2 } },
    settings: { pollIntervalSec: '10' },
  });
  agent = chain.newAgent();
  const first = await agent.runCycle();
  expect(first.scan?.found).toBe(MINERS);
}, 90_000);

afterAll(async () => chain?.close());

async function requestLog(ip: string): Promise<HistoryLogInfo> {
  const res = await chain.admin.post('/api/miner/historyLog', { agentKey: FARM, ip });
  expect(res.statusCode, res.body).toBe(200);
  const { id } = body<{ id: string }>(res).data;
  const deadline = Date.now() + 20_000;
  let info: HistoryLogInfo | null = null;
  while (Date.now() < deadline) {
    await agent.pullTasks();
    await agent.idle();
    info = body<HistoryLogInfo>(await chain.admin.get('/api/miner/historyLog/status', { agentKey: FARM, id })).data;
    if (info.status === 'done' || info.status === 'failed') return info;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`history log not finished: ${JSON.stringify(info)}`);
}

describe('history log', () => {
  it("reads a stock Antminer's log through its web CGI and shows it in the console", async () => {
    const miners = chain.fleet.miners.filter((m) => m.family === 'antminer-stock');
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
    const m = chain.fleet.miners.find((x) => x.family === 'vnish');
    expect(m).toBeDefined();
    m!.log('chain 1: 108 chips found, history-log test line');
    const info = await requestLog(m!.ip);
    expect(info.status, JSON.stringify(info)).toBe('done');
    expect(info.source).toBe('/api/v1/logs/miner');
    expect(info.content).toContain('history-log test line');
    expect(info.size).toBe(Buffer.byteLength(info.content ?? ''));
  }, 60_000);

  it('reports why when the family has no log over the web', async () => {
    const other = chain.fleet.miners.find((m) => m.family === 'whatsminer');
    expect(other).toBeDefined();
    const info = await requestLog(other!.ip);
    expect(info).toMatchObject({ status: 'failed', content: null });
    expect(info.reason).toMatch(/^unsupported-op/);
  }, 60_000);
});
