import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FarmPower } from '@shared/schemas/farm';
import { cycleReadings } from '../support/miner-snapshots';
import { Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadCycle } from './harness';

describe("the farm's power against its limit", () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    const farm = await createFarm(admin, 'power-a');
    await createFarm(admin, 'power-b');
    // 6 miners: 0-3 online reporting 3,000 W + 100 W × i, 4 online without a power figure, 5 offline (5,000 W in its last reading)
    const readings = cycleReadings(6, '2026-03-10T08:00:00.000Z', (s, i) => {
      s.powerW = 3000 + 100 * i;
      if (i === 4) delete s.powerW;
      if (i === 5) Object.assign(s, { online: false, missedPolls: 3, powerW: 5000, state: { ...s.state, online: false } });
    });
    await uploadCycle(t.app, farm, 1, readings);
  });
  afterAll(async () => t.close());

  const power = async (agentKey = 'power-a', c: Client = admin) => {
    const res = await c.get('/api/agent/power', { agentKey });
    expect(res.statusCode, res.body).toBe(200);
    return body<FarmPower>(res).data;
  };

  it('sums what the online miners report; a miner without a power figure is counted apart; no limit at first', async () => {
    expect(await power()).toEqual({ powerLimitKw: null, powerNowKw: 12.6, onlineMiners: 5, reportingMiners: 4 });
    expect(await power('power-b')).toEqual({ powerLimitKw: null, powerNowKw: null, onlineMiners: 0, reportingMiners: 0 });
  });

  it('reads the limit setAgentPower keeps; 0 removes it; a miner taken off shelf leaves the sum', async () => {
    expect((await admin.post('/api/minerv2/setAgentPower', { agentKey: 'power-a', powerLimitKw: '11.5' })).statusCode).toBe(200);
    expect(await power()).toMatchObject({ powerLimitKw: 11.5, powerNowKw: 12.6 });
    const bad = await admin.post('/api/minerv2/setAgentPower', { agentKey: 'power-a', powerLimitKw: '-1' });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).msg).toBe('Power limit: 0 or more kW');
    expect((await power()).powerLimitKw).toBe(11.5);
    const ip0 = (await t.db.selectFrom('miners').select('ip').where('agent_key', '=', 'power-a').where('rt5s', '>', 0).orderBy('ip').executeTakeFirstOrThrow()).ip;
    const off = await admin.post('/api/minerv2/batchOffline', { agentKey: 'power-a', ips: ip0 });
    expect(off.statusCode, off.body).toBe(200);
    const after = await power();
    expect(after.onlineMiners).toBe(4);
    expect(after.powerNowKw).toBeLessThan(12.6);
    expect((await admin.post('/api/minerv2/setAgentPower', { agentKey: 'power-a', powerLimitKw: '0' })).statusCode).toBe(200);
    expect((await power()).powerLimitKw).toBeNull();
  });

  it('needs the farm settings key and the farm', async () => {
    const member = (await createMember(admin, 'power-view', [80_000], ['power-a'])).client;
    expect((await member.get('/api/agent/power', { agentKey: 'power-a' })).statusCode).toBe(200);
    expect((await member.get('/api/agent/power', { agentKey: 'power-b' })).statusCode).toBe(403);
    const none = (await createMember(admin, 'power-none', [10_000], ['power-a'])).client;
    expect((await none.get('/api/agent/power', { agentKey: 'power-a' })).statusCode).toBe(403);
  });
});
