import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@sim/fleet';
import type { SimMiner } from '@sim/devices/sim-miner';
import { httpRequest, rpcJson, rpcRaw, whatsminerV3Call, whatsminerV3Token, whatsminerWrite } from '@sim/sim-client';

// Whatsminer API v2 (4028) and v3 (4433); this file owns 127.21.3.0/24
let fleet: Fleet;
let w: SimMiner;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rpc = (m: SimMiner, req: Record<string, unknown>) => rpcJson(m.ip, fleet.ports.rpc, req);

function setFw(m: SimMiner, version: string): void {
  const date = version.slice(0, 8);
  m.firmware = { version, compileTime: date, date, apiVersion: date >= '20241101' ? '3.0.2' : date >= '20220729' ? '2.0.5' : 'whatsminer v1.3' };
}

beforeAll(async () => {
  fleet = await startFleet({ miners: 5, cidr: '127.21.3.0/24', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 5, mix: { whatsminer: 1 }, rebootDarkMs: 300, tickMs: 50 });
  w = fleet.miners[0]!;
  setFw(w, '20230803.11.REL');
});
afterAll(async () => { await fleet?.close(); });

describe('Whatsminer v2 reads', () => {
  it('summary in MH/s with Factory GHS in GH/s and quoted firmware version', async () => {
    const r = await rpc(w, { cmd: 'summary' });
    const s = (r.SUMMARY as Array<Record<string, unknown>>)[0]!;
    const mhs = s['MHS 1m'] as number;
    expect(mhs).toBeGreaterThan(w.model.idealGhs * 1000 * 0.8);
    expect(mhs).toBeLessThan(w.model.idealGhs * 1000 * 1.2);
    expect(s['Factory GHS']).toBe(Math.round(w.model.idealGhs));
    expect(s['Firmware Version']).toBe(`'${w.firmware.version}'`);
    expect(s['Power Mode']).toBe('Normal');
    expect(typeof s['Fan Speed In']).toBe('number');
    const raw = await rpcRaw(w.ip, fleet.ports.rpc, { command: 'summary' });
    expect(raw.endedWithNul).toBe(true);
  });

  it('pools numbered from 1, devs per board, devdetails names the model with bitmicro', async () => {
    const p = (await rpc(w, { command: 'pools' })).POOLS as Array<Record<string, unknown>>;
    expect(p[0]!.POOL).toBe(1);
    expect(p[0]!.URL).toBe(w.pools[0]!.url);
    const d = (await rpc(w, { command: 'devs' })).DEVS as Array<Record<string, unknown>>;
    expect(d).toHaveLength(w.model.hashboards);
    expect(d[0]!['Effective Chips']).toBe(w.model.chipsPerBoard);
    const dd = await rpcRaw(w.ip, fleet.ports.rpc, { command: 'devdetails' });
    expect(dd.text.toUpperCase()).toContain('BITMICRO');
    expect((JSON.parse(dd.text).DEVDETAILS as Array<Record<string, unknown>>)[0]!.Model).toBe(w.model.reportedName);
  });

  it('btminer-native flat replies: get_version, get_miner_info, get_psu, status, get_error_code', async () => {
    const v = await rpc(w, { cmd: 'get_version' });
    expect(v).toMatchObject({ STATUS: 'S', Code: 131, Msg: { fw_ver: w.firmware.version, api_ver: '2.0.5' } });
    const info = await rpc(w, { cmd: 'get_miner_info', info: 'ip,mac,ledstat,minersn' });
    expect(info.Msg).toEqual({ ip: w.ip, mac: w.mac, ledstat: 'auto', minersn: `${w.sn}${'0'.repeat(16)}` });
    expect(typeof ((await rpc(w, { cmd: 'get_psu' })).Msg as Record<string, unknown>).fan_speed).toBe('string');
    expect((await rpc(w, { cmd: 'status' })).Msg).toMatchObject({ mineroff: 'false' });
    w.injectFault('fan-failure');
    const e = (await rpc(w, { cmd: 'get_error_code' })).Msg as { error_code: Array<Record<string, string>> };
    expect(Object.keys(e.error_code[0]!)).toEqual(['110']);
    w.injectFault('fan-failure', false);
    expect(await rpc(w, { cmd: 'nonsense' })).toMatchObject({ STATUS: 'E', Code: 14 });
  });

  it('v1 firmware reports errors inside summary and btmineroff in status', async () => {
    const m = fleet.miners[1]!;
    setFw(m, '20220422.18.REL');
    m.injectFault('board-down');
    const s = ((await rpc(m, { cmd: 'summary' })).SUMMARY as Array<Record<string, unknown>>)[0]!;
    expect(s['Error Code Count']).toBe(1);
    expect((await rpc(m, { cmd: 'status' })).Msg).toHaveProperty('btmineroff', 'false');
    const bare = await rpcRaw(m.ip, fleet.ports.rpc, { cmd: 'get_miner_info' });
    expect(bare.text).toContain('"ledstat":"auto",}');
    m.injectFault('board-down', false);
  });
});

describe('Whatsminer v2 privileged writes', () => {
  it('rejects plain writes and wrong passwords', async () => {
    expect(await rpc(w, { cmd: 'reboot' })).toMatchObject({ STATUS: 'E', Msg: "can't access write cmd" });
    expect(await whatsminerWrite(w.ip, fleet.ports.rpc, 'wrong', { cmd: 'set_led', param: 'auto' })).toMatchObject({ STATUS: 'E', Code: 135 });
  });

  it('set_led, update_pools, power_off/power_on via token + AES', async () => {
    expect(await whatsminerWrite(w.ip, fleet.ports.rpc, 'admin', { cmd: 'set_led', color: 'red', period: 200, duration: 100, start: 0 })).toMatchObject({ STATUS: 'S', Code: 131, Msg: 'API command OK' });
    expect(((await rpc(w, { cmd: 'get_miner_info', info: 'ledstat' })).Msg as Record<string, unknown>).ledstat).not.toBe('auto');
    await whatsminerWrite(w.ip, fleet.ports.rpc, 'admin', { cmd: 'set_led', param: 'auto' });
    expect(w.blink).toBe(false);
    await whatsminerWrite(w.ip, fleet.ports.rpc, 'admin', { cmd: 'update_pools', pool1: 'stratum+tcp://wm.example:3333', worker1: 'acct.w9', passwd1: 'x', pool2: '', worker2: '', passwd2: '', pool3: '', worker3: '', passwd3: '' });
    const p = (await rpc(w, { command: 'pools' })).POOLS as Array<Record<string, unknown>>;
    expect(p[0]).toMatchObject({ URL: 'stratum+tcp://wm.example:3333', User: 'acct.w9' });
    await whatsminerWrite(w.ip, fleet.ports.rpc, 'admin', { cmd: 'power_off', respbefore: 'true' });
    expect((await rpc(w, { cmd: 'status' })).Msg).toMatchObject({ mineroff: 'true' });
    expect(((await rpc(w, { cmd: 'summary' })).SUMMARY as Array<Record<string, unknown>>)[0]!['MHS 1m']).toBe(0);
    await whatsminerWrite(w.ip, fleet.ports.rpc, 'admin', { cmd: 'power_on' });
    expect(w.workMode).toBe('normal');
  });

  it('reboot goes dark then returns', async () => {
    const m = fleet.miners[2]!;
    setFw(m, '20240624.18.REL');
    await whatsminerWrite(m.ip, fleet.ports.rpc, 'admin', { cmd: 'reboot' });
    await sleep(20);
    await expect(rpcRaw(m.ip, fleet.ports.rpc, { cmd: 'summary' })).rejects.toThrow();
    await sleep(400);
    expect(((await rpc(m, { cmd: 'summary' })).SUMMARY as Array<Record<string, unknown>>)[0]!.Elapsed as number).toBeLessThan(5);
  });

  it('GET / redirects 307 to the https LuCI page', async () => {
    const r = await httpRequest(w.ip, fleet.ports.web, { path: '/' });
    expect(r.status).toBe(307);
    expect(r.headers.location).toBe(`https://${w.ip}/cgi-bin/luci`);
  });
});

describe('Whatsminer API v3 (4433)', () => {
  it('only v3 firmware listens; get.device.info and get.miner.status; signed set commands', async () => {
    const m = fleet.miners[3]!;
    setFw(m, '20230803.11.REL');
    await expect(whatsminerV3Call(m.ip, fleet.ports.whatsminerV3, { cmd: 'get.device.info' })).rejects.toThrow();
    setFw(m, '20251209.16.Rel2');
    const info = await whatsminerV3Call(m.ip, fleet.ports.whatsminerV3, { cmd: 'get.device.info', param: null });
    expect(info).toMatchObject({ code: 0, desc: 'get.device.info' });
    const msg = info.msg as Record<string, Record<string, unknown>> & { salt: string };
    expect(msg.miner!.type).toBe(m.model.reportedName);
    expect(msg.system!.fwversion).toBe('20251209.16.Rel2');
    const st = await whatsminerV3Call(m.ip, fleet.ports.whatsminerV3, { cmd: 'get.miner.status', param: 'summary' });
    const hr = ((st.msg as Record<string, Record<string, unknown>>).summary!['hash-realtime']) as number;
    expect(hr).toBeGreaterThan(m.model.idealGhs / 1000 * 0.8);
    expect(hr).toBeLessThan(m.model.idealGhs / 1000 * 1.2);
    const ts = Math.floor(Date.now() / 1000);
    const bad = await whatsminerV3Call(m.ip, fleet.ports.whatsminerV3, { cmd: 'set.system.led', param: [{ color: 'red', period: 200, duration: 100, start: 0 }], ts, account: 'super', token: 'xxxxxxxx' });
    expect(bad.code).not.toBe(0);
    const token = whatsminerV3Token('set.system.led', 'super', msg.salt, ts);
    const ok = await whatsminerV3Call(m.ip, fleet.ports.whatsminerV3, { cmd: 'set.system.led', param: [{ color: 'red', period: 200, duration: 100, start: 0 }], ts, account: 'super', token });
    expect(ok).toMatchObject({ code: 0, msg: 'ok' });
    expect(m.blink).toBe(true);
    // v3 firmware no longer accepts v2 writes on 4028
    expect(await whatsminerWrite(m.ip, fleet.ports.rpc, 'admin', { cmd: 'set_led', param: 'auto' })).toMatchObject({ STATUS: 'E', Msg: "can't access write cmd" });
  });
});
