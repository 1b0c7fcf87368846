/**
 * The list's error-code filter and its dropdown (spec 3 §7 "Dropdown lists": errorCode): the codes the farm's miners
 * report now, each with the message most of them give (firmwares word a code differently), the agent's own negative
 * codes named in the request's language; the filter lists the miners reporting a code, the counters follow it, and a
 * value that is not a code is refused with nothing listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MinerStat } from '@shared/schemas/miner';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { cycleReadings, minerIp } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createTestApp, listMiners, setupAdmin, uploadCycle } from './harness';

type Option = { text: string; value: string };

describe('error code filter', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let other: { agentKey: string; secret: string };

  const ERRORS: Record<number, MinerSnapshot['errorCodes']> = {
    1: [{ code: 2010, message: 'all hashboards not found' }],
    2: [{ code: 2010, message: 'all hashboards not found' }],
    3: [{ code: 2010, message: 'chain not found' }, { code: 2040, message: 'fan lost' }],
    5: [{ code: -401, message: 'authentication failed' }],
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'err-farm');
    other = await createFarm(admin, 'err-other');
    const takenAt = new Date().toISOString();
    await uploadCycle(t.app, farm, 1, cycleReadings(8, takenAt, (s, i) => (s.errorCodes = ERRORS[i] ?? [])));
    await uploadCycle(t.app, other, 1, cycleReadings(2, takenAt, (s) => (s.errorCodes = [{ code: 9999, message: 'elsewhere' }])));
  }, 60_000);
  afterAll(async () => t.close());

  const options = async (locale = 'en-US') => {
    const res = await admin.request({ method: 'GET', url: `/api/options/errorCode?agentKey=${farm.agentKey}`, headers: { I18N: locale } });
    expect(res.statusCode, res.body).toBe(200);
    return body<Option[]>(res).data;
  };

  it("offers the farm's codes, lowest first, with the most frequent message, the agent's own named in the language", async () => {
    expect(await options()).toEqual([
      { text: "-401 The miner refused the farm's logins: add its password under Farm settings → Miner logins", value: '-401' },
      { text: '2010 all hashboards not found', value: '2010' },
      { text: '2040 fan lost', value: '2040' },
    ]);
    const ru = await options('ru');
    expect(ru[0]).toEqual({ text: '-401 Майнер отклонил входы фермы: добавьте его пароль в «Настройки фермы → Входы на майнеры»', value: '-401' });
  });

  it('lists the miners reporting a code; the counters follow the filter', async () => {
    const ips = async (errorCode: string) => (await listMiners(admin, farm.agentKey, { errorCode })).list.map((m) => m.ip).sort();
    expect(await ips('2010')).toEqual([minerIp(1), minerIp(2), minerIp(3)].sort());
    expect(await ips('2040')).toEqual([minerIp(3)]);
    expect(await ips('-401')).toEqual([minerIp(5)]);
    expect(await ips('9999')).toEqual([]); // another farm's
    const stat = body<MinerStat>(await admin.get('/api/miner/stat', { agentKey: farm.agentKey, errorCode: '2010' })).data;
    expect(stat.total).toBe(3);
  });

  it('refuses a value that is not a code, saying so', async () => {
    for (const errorCode of ['abc', '20 10', '1234567890', "2010' or 1=1"]) {
      const res = await admin.get('/api/miner/list', { agentKey: farm.agentKey, errorCode });
      expect(res.statusCode, errorCode).toBe(400);
      expect(body(res).msg, errorCode).toContain('An error code is a whole number');
    }
  });
});
