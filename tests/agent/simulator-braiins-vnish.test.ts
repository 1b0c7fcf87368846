import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@sim/fleet';
import type { SimMiner } from '@sim/devices/sim-miner';
import { httpRequest, rpcJson, rpcRaw } from '@sim/sim-client';

// Braiins OS and VNish on Antminer hardware; this file owns 127.21.4.0/24
let fleet: Fleet;
let bos: SimMiner;
let vn: SimMiner;
const rpc = (m: SimMiner, req: Record<string, unknown>) => rpcJson(m.ip, fleet.ports.rpc, req);

beforeAll(async () => {
  fleet = await startFleet({ miners: 6, cidr: '127.21.4.0/24', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 9, mix: { braiins: 1, vnish: 1 } });
  bos = fleet.miners.find((m) => m.family === 'braiins')!;
  vn = fleet.miners.find((m) => m.family === 'vnish')!;
});
afterAll(async () => { await fleet?.close(); });

describe('Braiins OS', () => {
  it('version/summary/devs/devdetails in BOSer style with MH/s', async () => {
    const v = await rpc(bos, { command: 'version' });
    expect((v.STATUS as Array<Record<string, unknown>>)[0]).toMatchObject({ Msg: 'BOSer versions', Description: 'BOSer boser-buildroot 0.1.0-45f356ea' });
    expect((v.VERSION as Array<Record<string, unknown>>)[0]).toEqual({ BOSer: 'boser-buildroot 0.1.0-45f356ea', API: '3.7' });
    const s = ((await rpc(bos, { command: 'summary' })).SUMMARY as Array<Record<string, unknown>>)[0]!;
    expect(s['MHS 1m'] as number).toBeGreaterThan(bos.model.idealGhs * 1000 * 0.8);
    const devs = (await rpc(bos, { command: 'devs' })).DEVS as Array<Record<string, unknown>>;
    expect(devs.map((d) => d.ID)).toEqual([1, 2, 3]);
    expect(devs[0]!['Nominal MHS'] as number).toBeCloseTo((bos.model.idealGhs / 3) * 1000, -2);
    const dd = (await rpc(bos, { command: 'devdetails' })).DEVDETAILS as Array<Record<string, unknown>>;
    expect(dd[0]).toMatchObject({ Model: 'Bitmain Antminer S19j Pro', Chips: bos.model.chipsPerBoard });
    const multi = await rpc(bos, { command: 'fans+tempctrl+temps+tunerstatus+summary+pools' });
    expect(Object.keys(multi).sort()).toEqual(['fans', 'id', 'pools', 'summary', 'tempctrl', 'temps', 'tunerstatus']);
  });

  it('pause/resume, addpool, and the web root page', async () => {
    expect((await rpc(bos, { command: 'pause' })).PAUSE).toEqual([true]);
    expect(((await rpc(bos, { command: 'summary' })).SUMMARY as Array<Record<string, unknown>>)[0]!['MHS 5s']).toBe(0);
    expect((await rpc(bos, { command: 'resume' })).RESUME).toEqual([true]);
    if (bos.pools[2]!.url !== '') bos.setPools(bos.pools.slice(0, 2));
    const add = await rpc(bos, { command: 'addpool', parameter: 'stratum+tcp://bos.example:3333,acct.b1,x' });
    expect((add.STATUS as Array<Record<string, unknown>>)[0]).toMatchObject({ STATUS: 'S', Code: 55 });
    const page = await httpRequest(bos.ip, fleet.ports.web, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Braiins OS');
  });

  it('REST API on 25.07+ builds: login, locate, details', async () => {
    bos.firmware = { version: '2025-08-06-0-3881c51d-25.07-plus', compileTime: '2025-08-06', date: '20250806', apiVersion: '3.7' };
    expect((await httpRequest(bos.ip, fleet.ports.web, { path: '/api/v1/miner/details' })).status).toBe(401);
    const login = await httpRequest(bos.ip, fleet.ports.web, { method: 'POST', path: '/api/v1/auth/login', body: JSON.stringify({ username: 'root', password: 'root' }), headers: { 'Content-Type': 'application/json' } });
    const { token } = JSON.parse(login.body) as { token: string };
    const det = JSON.parse((await httpRequest(bos.ip, fleet.ports.web, { path: '/api/v1/miner/details', headers: { Authorization: token } })).body);
    expect(det.sticker_hashrate.gigahash_per_second).toBe(bos.model.idealGhs);
    await httpRequest(bos.ip, fleet.ports.web, { method: 'PUT', path: '/api/v1/actions/locate', body: 'true', headers: { Authorization: token } });
    expect(bos.blink).toBe(true);
  });
});

describe('VNish', () => {
  it('RPC: version is Invalid command Code 0 without id; stats Type names Vnish; GHS 5s string', async () => {
    const v = await rpc(vn, { command: 'version' });
    expect(v).toEqual({ STATUS: [expect.objectContaining({ STATUS: 'E', Code: 0, Msg: 'Invalid command', Description: 'cgminer 4.11.1' })] });
    const st = (await rpc(vn, { command: 'stats' })).STATS as Array<Record<string, unknown>>;
    expect(st[0]!.Type).toBe(`Antminer S21 Pro (Vnish ${vn.firmware.version})`);
    expect(typeof st[1]!['GHS 5s']).toBe('string');
    const pools = (await rpc(vn, { command: 'pools' })).POOLS as Array<Record<string, unknown>>;
    expect(pools.some((p) => p.URL === 'DevFee')).toBe(true);
    expect((await rpcRaw(vn.ip, fleet.ports.rpc, { command: 'summary' })).endedWithNul).toBe(true);
  });

  it('web: AnthillOS root, unlock, settings write changes pools', async () => {
    const page = await httpRequest(vn.ip, fleet.ports.web, { path: '/' });
    expect(page.body).toContain('<meta name="firmware" content="AnthillOS">');
    const info = JSON.parse((await httpRequest(vn.ip, fleet.ports.web, { path: '/api/v1/info' })).body);
    expect(info).toMatchObject({ fw_name: 'Vnish', miner: 'Antminer S21 Pro' });
    expect((await httpRequest(vn.ip, fleet.ports.web, { method: 'POST', path: '/api/v1/unlock', body: JSON.stringify({ pw: 'bad' }) })).status).toBe(403);
    const { token } = JSON.parse((await httpRequest(vn.ip, fleet.ports.web, { method: 'POST', path: '/api/v1/unlock', body: JSON.stringify({ pw: 'admin' }) })).body) as { token: string };
    expect(token).toHaveLength(32);
    const set = await httpRequest(vn.ip, fleet.ports.web, { method: 'POST', path: '/api/v1/settings', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify({ miner: { pools: [{ url: 'stratum+tcp://vn.example:3333', user: 'acct.v1', pass: 'x' }] } }) });
    expect(JSON.parse(set.body)).toEqual({ restart_required: false, reboot_required: false });
    expect(vn.pools[0]!.url).toBe('stratum+tcp://vn.example:3333');
    const sum = JSON.parse((await httpRequest(vn.ip, fleet.ports.web, { path: '/api/v1/summary' })).body);
    expect(sum.miner.miner_status.miner_state).toBe('mining');
    expect(sum.miner.chains).toHaveLength(3);
  });
});
