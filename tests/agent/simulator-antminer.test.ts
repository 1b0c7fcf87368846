import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@sim/fleet';
import { stockFirmware } from '@sim/devices/firmware-catalogue';
import type { SimMiner } from '@sim/devices/sim-miner';
import { digestRequest, httpRequest, rpcJson, rpcRaw } from '@sim/sim-client';

// stock Antminer over RPC 4028 and the CGI web API; this file owns 127.21.1.0/24
let fleet: Fleet;
let a: SimMiner;

const rpc = (m: SimMiner, cmd: string | Record<string, unknown>) => rpcJson(m.ip, fleet.ports.rpc, typeof cmd === 'string' ? { command: cmd } : cmd);
const web = (m: SimMiner, path: string, opts: { method?: string; body?: string | Buffer; contentType?: string; password?: string } = {}) =>
  digestRequest(m.ip, fleet.ports.web, { path, user: 'root', password: opts.password ?? m.web.password, method: opts.method, body: opts.body, contentType: opts.contentType });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function modern(m: SimMiner): void {
  m.firmware = stockFirmware(m.model, '20241015');
}

beforeAll(async () => {
  fleet = await startFleet({ miners: 8, cidr: '127.21.1.0/24', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 7, mix: { 'antminer-stock': 1 }, rebootDarkMs: 400, tickMs: 50 });
  a = fleet.miners[0]!;
});
afterAll(async () => { await fleet?.close(); });

describe('stock Antminer RPC (4028)', () => {
  it('terminates each reply with NUL and closes the socket', async () => {
    const r = await rpcRaw(a.ip, fleet.ports.rpc, { command: 'version' });
    expect(r.endedWithNul).toBe(true);
    expect(() => JSON.parse(r.text)).not.toThrow();
  });

  it('version carries Type and CompileTime', async () => {
    const r = await rpc(a, 'version');
    const st = (r.STATUS as Array<Record<string, unknown>>)[0]!;
    expect(st).toMatchObject({ STATUS: 'S', Code: 22, Msg: 'CGMiner versions', Description: 'cgminer 1.0.0' });
    expect(typeof st.When).toBe('number');
    expect((r.VERSION as Array<Record<string, unknown>>)[0]).toMatchObject({ Type: a.model.reportedName, CompileTime: a.firmware.compileTime, API: '3.1' });
    expect(r.id).toBe(1);
  });

  it('summary uses GH/s numbers', async () => {
    const s = ((await rpc(a, 'summary')).SUMMARY as Array<Record<string, unknown>>)[0]!;
    expect(typeof s['GHS 5s']).toBe('number');
    expect(s['GHS 5s'] as number).toBeGreaterThan(a.model.idealGhs * 0.8);
    expect(s['GHS 5s'] as number).toBeLessThan(a.model.idealGhs * 1.2);
    expect(typeof s.Elapsed).toBe('number');
  });

  it('pools has exactly 3 slots with stock key quirks', async () => {
    const r = await rpc(a, 'pools');
    const pools = r.POOLS as Array<Record<string, unknown>>;
    expect(pools).toHaveLength(3);
    expect(pools[0]).toMatchObject({ POOL: 0, URL: a.pools[0]!.url, User: a.pools[0]!.user, Status: 'Alive', 'Stratum Active': true });
    expect(pools[0]).toHaveProperty('Pool Stale%%');
    expect((r.STATUS as Array<Record<string, unknown>>)[0]).toMatchObject({ Code: 7, Msg: '3 Pool(s)' });
  });

  it('devs is the single BTM_SOC pseudo-device with the Tenperature typo', async () => {
    const d = ((await rpc(a, 'devs')).DEVS as Array<Record<string, unknown>>);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ Name: 'BTM_SOC', Tenperature: 0 });
  });

  it('stats old layout: identity + flat chain keys with string rates', async () => {
    const r = await rpc(a, 'stats');
    const [id, s] = r.STATS as Array<Record<string, unknown>>;
    expect(id).toMatchObject({ BMMiner: '1.0.0', Type: a.model.reportedName });
    expect(s!.rate_unit).toBe('GH');
    expect(s!.total_rateideal).toBe(a.model.idealGhs);
    expect(s!.chain_acn1).toBe(a.model.chipsPerBoard);
    expect(typeof s!.chain_rate1).toBe('string');
    expect(s!.chain_rate4).toBe('');
    expect(s!.temp_pcb4).toBe('0-0-0-0');
    expect(String(s!.temp_pcb1)).toMatch(/^\d+-\d+-\d+-\d+$/);
    expect((s!.chain_acs1 as string).replace(/ /g, '')).toBe('o'.repeat(a.model.chipsPerBoard));
    expect(s!).toHaveProperty('total rate');
    expect(s!.fan_num).toBe(a.model.fans);
  });

  it('new_api stats layout on 2023-07+ firmware, old layout before', async () => {
    const m = fleet.miners[1]!;
    m.firmware = stockFirmware(m.model, '20221206');
    const old = await rpc(m, { command: 'stats', new_api: true });
    expect(Array.isArray(old.STATUS)).toBe(true);
    modern(m);
    const r = await rpc(m, { command: 'stats', new_api: true });
    expect(r.STATUS).toMatchObject({ STATUS: 'S', Msg: 'stats' });
    expect(typeof (r.STATUS as Record<string, unknown>).when).toBe('number');
    expect(r).not.toHaveProperty('id');
    const st = (r.STATS as Array<Record<string, unknown>>)[0]!;
    expect(st.rate_unit).toBe('GH/s');
    const chain = st.chain as Array<Record<string, unknown>>;
    expect(chain).toHaveLength(m.model.hashboards);
    expect(chain[0]).toMatchObject({ index: 0, asic_num: m.model.chipsPerBoard, eeprom_loaded: true });
    expect(Array.isArray(chain[0]!.temp_chip)).toBe(true);
  });

  it('answers plain-text cmd|param requests in text format', async () => {
    const r = await rpcRaw(a.ip, fleet.ports.rpc, 'summary|');
    expect(r.text.startsWith('STATUS=S,When=')).toBe(true);
    expect(r.text).toContain('|SUMMARY,Elapsed=');
    expect(r.text.endsWith('|')).toBe(true);
  });

  it('multi-command returns one-element arrays keyed by command', async () => {
    const r = await rpc(a, 'summary+pools+stats+summary');
    expect(Object.keys(r).sort()).toEqual(['id', 'pools', 'stats', 'summary']);
    expect((r.summary as unknown[])).toHaveLength(1);
    expect(((r.pools as Array<Record<string, unknown>>)[0]!.POOLS as unknown[])).toHaveLength(3);
  });

  it('denies every non-whitelisted command with Code 45 and unknown ones with 14', async () => {
    for (const cmd of ['addpool', 'switchpool', 'restart', 'quit', 'devdetails', 'config', 'privileged']) {
      const st = ((await rpc(a, { command: cmd, parameter: '0' })).STATUS as Array<Record<string, unknown>>)[0]!;
      expect(st).toMatchObject({ STATUS: 'E', Code: 45, Msg: `Access denied to '${cmd}' command` });
    }
    const inv = ((await rpc(a, 'frobnicate')).STATUS as Array<Record<string, unknown>>)[0]!;
    expect(inv).toMatchObject({ STATUS: 'E', Code: 14, Msg: 'Invalid command' });
    const multi = await rpc(a, 'summary+addpool');
    expect(((multi.addpool as Array<Record<string, unknown>>)[0]!.STATUS as Array<Record<string, unknown>>)[0]!.Code).toBe(45);
    expect(multi.summary).toBeDefined();
  });

  it('rejects malformed JSON with Code 23', async () => {
    const r = await rpcJson(a.ip, fleet.ports.rpc, '{"command":"summ');
    expect((r.STATUS as Array<Record<string, unknown>>)[0]).toMatchObject({ STATUS: 'E', Code: 23, Msg: 'Invalid JSON' });
    const m = await rpcJson(a.ip, fleet.ports.rpc, '{"parameter":"0"}');
    expect((m.STATUS as Array<Record<string, unknown>>)[0]).toMatchObject({ Code: 24, Msg: "Missing JSON 'command'" });
  });
});

describe('stock Antminer web (digest CGI)', () => {
  it('GET / answers 401 with the antMiner realm', async () => {
    const r = await httpRequest(a.ip, fleet.ports.web, { path: '/' });
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^Digest realm="antMiner Configuration", nonce="[0-9a-f]+", qop="auth"$/);
    expect(r.headers.server).toBe('lighttpd/1.4.32');
  });

  it('right password 200, wrong password 401, passwd.cgi changes it', async () => {
    const m = fleet.miners[2]!;
    expect((await web(m, '/cgi-bin/get_system_info.cgi')).status).toBe(200);
    expect((await web(m, '/cgi-bin/get_system_info.cgi', { password: 'nope' })).status).toBe(401);
    const bad = JSON.parse((await web(m, '/cgi-bin/passwd.cgi', { method: 'POST', body: JSON.stringify({ curPwd: 'wrong', newPwd: 'N3w', confirmPwd: 'N3w' }) })).body);
    expect(bad.stats).toBe('error');
    const ok = await web(m, '/cgi-bin/passwd.cgi', { method: 'POST', body: JSON.stringify({ curPwd: 'root', newPwd: 'N3w!pw', confirmPwd: 'N3w!pw' }), password: 'root' });
    expect(JSON.parse(ok.body)).toEqual({ stats: 'success', code: 'P000', msg: 'OK!' });
    expect((await web(m, '/cgi-bin/get_system_info.cgi', { password: 'root' })).status).toBe(401);
    expect((await web(m, '/cgi-bin/get_system_info.cgi', { password: 'N3w!pw' })).status).toBe(200);
    m.setPassword('root');
    expect((await web(m, '/cgi-bin/get_system_info.cgi', { password: 'root' })).status).toBe(200);
  });

  it('get_system_info / miner_type / get_miner_conf shapes', async () => {
    modern(a);
    const info = JSON.parse((await web(a, '/cgi-bin/get_system_info.cgi')).body);
    expect(info).toMatchObject({ minertype: a.model.reportedName, macaddr: a.mac, ipaddress: a.ip, serinum: a.sn });
    expect(a.sn).toHaveLength(17);
    expect(JSON.parse((await web(a, '/cgi-bin/miner_type.cgi')).body).miner_type).toBe(a.model.reportedName);
    const conf = JSON.parse((await web(a, '/cgi-bin/get_miner_conf.cgi')).body);
    expect(conf.pools).toHaveLength(3);
    expect(conf['bitmain-work-mode']).toBe('0');
    expect(conf['api-groups']).toBe('A:stats:pools:devs:summary:version');
    const old = fleet.miners[3]!;
    old.firmware = stockFirmware(old.model, '20221206');
    expect((await web(old, '/cgi-bin/miner_type.cgi')).status).toBe(404);
    expect((await web(old, '/cgi-bin/log.cgi')).status).toBe(200);
    expect((await web(a, '/cgi-bin/get_kernel_log.cgi')).status).toBe(200);
  });

  it('set_miner_conf changes what RPC pools reports; sleep gives 0 hashrate and low fans', async () => {
    const m = fleet.miners[4]!;
    const pools = [
      { url: 'stratum+tcp://new.example-pool.com:3333', user: 'acct9.w1', pass: 'x' },
      { url: 'stratum+tcp://new-backup.example-pool.com:443', user: 'acct9.w1', pass: 'x' },
      { url: '', user: '', pass: '' },
    ];
    const r = await web(m, '/cgi-bin/set_miner_conf.cgi', { method: 'POST', body: JSON.stringify({ pools, 'miner-mode': 1 }), contentType: 'application/json' });
    expect(JSON.parse(r.body)).toEqual({ stats: 'success', code: 'M000', msg: 'OK!' });
    const p = (await rpc(m, 'pools')).POOLS as Array<Record<string, unknown>>;
    expect(p.map((x) => x.URL)).toEqual(pools.map((x) => x.url));
    expect(p[0]!.User).toBe('acct9.w1');
    const s = ((await rpc(m, 'summary')).SUMMARY as Array<Record<string, unknown>>)[0]!;
    expect(s['GHS 5s']).toBe(0);
    const st = ((await rpc(m, 'stats')).STATS as Array<Record<string, unknown>>)[1]!;
    expect(st.fan1 as number).toBeLessThan(1500);
    expect(JSON.parse((await web(m, '/cgi-bin/get_miner_conf.cgi')).body)['bitmain-work-mode']).toBe('1');
    await web(m, '/cgi-bin/set_miner_conf.cgi', { method: 'POST', body: JSON.stringify({ 'bitmain-work-mode': '0' }) });
    expect(m.workMode).toBe('normal');
    const bad = JSON.parse((await web(m, '/cgi-bin/set_miner_conf.cgi', { method: 'POST', body: JSON.stringify({ 'miner-mode': 9 }) })).body);
    expect(bad.code).toBe('M001');
  });

  it('blink toggles B000/B100 and get_blink_status follows', async () => {
    const on = JSON.parse((await web(a, '/cgi-bin/blink.cgi', { method: 'POST', body: JSON.stringify({ blink: 'true' }) })).body);
    expect(on.code).toBe('B000');
    expect(JSON.parse((await web(a, '/cgi-bin/get_blink_status.cgi')).body)).toEqual({ blink: true });
    const off = JSON.parse((await web(a, '/cgi-bin/blink.cgi', { method: 'POST', body: JSON.stringify({ blink: 'false' }) })).body);
    expect(off.code).toBe('B100');
    expect(JSON.parse((await web(a, '/cgi-bin/get_blink_status.cgi')).body)).toEqual({ blink: false });
  });

  it('reboot makes the miner unreachable, then it returns with elapsed reset', async () => {
    const m = fleet.miners[5]!;
    const before = m.elapsed;
    expect(before).toBeGreaterThan(3000);
    const r = await web(m, '/cgi-bin/reboot.cgi', { method: 'POST' });
    expect(r.status).toBe(200);
    await sleep(20);
    expect(m.state).toBe('rebooting');
    await expect(rpcRaw(m.ip, fleet.ports.rpc, { command: 'summary' })).rejects.toThrow();
    await expect(httpRequest(m.ip, fleet.ports.web, { path: '/' })).rejects.toThrow();
    await sleep(500);
    expect(m.state).toBe('online');
    const s = ((await rpc(m, 'summary')).SUMMARY as Array<Record<string, unknown>>)[0]!;
    expect(s.Elapsed as number).toBeLessThan(5);
  });

  it('upgrade.cgi (multipart) changes firmware, reset_conf restores factory config, set_network_conf', async () => {
    const m = fleet.miners[6]!;
    m.firmware = stockFirmware(m.model, '20231117');
    const boundary = '----simtest1234';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Antminer-${m.model.model.replace(/ /g, '')}-release-20250312.tar.gz"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.alloc(200_000, 7),
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="keep_settings"\r\n\r\n1\r\n--${boundary}--\r\n`),
    ]);
    const r = await web(m, '/cgi-bin/upgrade.cgi', { method: 'POST', body, contentType: `multipart/form-data; boundary=${boundary}` });
    expect(JSON.parse(r.body)).toMatchObject({ stats: 'success', code: 'U000' });
    expect(m.firmware.date).toBe('20250312');
    expect(m.firmware.compileTime).toMatch(/Mar 12 .* 2025$/);
    await sleep(500);
    expect(m.state).toBe('online');
    const empty = await web(m, '/cgi-bin/upgrade.cgi', { method: 'POST', body: `--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` });
    expect(JSON.parse(empty.body).code).toBe('U001');

    m.setPools([{ url: 'stratum+tcp://x.example:1', user: 'u.1' }]);
    expect((await web(m, '/cgi-bin/reset_conf.cgi', { method: 'POST' })).status).toBe(200);
    expect(m.pools[0]!.url).not.toBe('stratum+tcp://x.example:1');

    const n = JSON.parse((await web(m, '/cgi-bin/set_network_conf.cgi', { method: 'POST', body: JSON.stringify({ ipAddress: '10.1.2.3', ipDns: '10.1.2.1', ipGateway: '10.1.2.1', ipHost: 'rack7', ipPro: 2, ipSub: '255.255.255.0' }) })).body);
    expect(n.code).toBe('N000');
    expect(JSON.parse((await web(m, '/cgi-bin/get_network_info.cgi')).body)).toMatchObject({ conf_nettype: 'Static', conf_ipaddress: '10.1.2.3', conf_hostname: 'rack7' });
    expect(JSON.parse((await web(m, '/cgi-bin/set_network_conf.cgi', { method: 'POST', body: JSON.stringify({ ipPro: 1, ipHost: 'bad host!' }) })).body).code).toBe('N001');
  });

  it('summary.cgi / stats.cgi / pools.cgi new layouts', async () => {
    const s = JSON.parse((await web(a, '/cgi-bin/summary.cgi')).body);
    expect(s.SUMMARY[0].status.map((x: { type: string }) => x.type)).toEqual(['rate', 'network', 'fans', 'temp']);
    expect(s.SUMMARY[0].rate_unit).toBe('GH/s');
    const p = JSON.parse((await web(a, '/cgi-bin/pools.cgi')).body);
    expect(p.POOLS[0]).toHaveProperty('url');
    const st = JSON.parse((await web(a, '/cgi-bin/stats.cgi')).body);
    expect(st.STATS[0].chain).toHaveLength(a.model.hashboards);
  });
});

describe('stock Antminer faults', () => {
  it('fan failure, missing chip, board down, high temp show in stats and summary.cgi', async () => {
    const m = fleet.miners[7]!;
    modern(m);
    if (m.model.fans === 0) return;
    m.injectFault('fan-failure');
    m.injectFault('missing-chip');
    m.injectFault('board-down');
    m.injectFault('high-temp');
    const s = ((await rpc(m, 'stats')).STATS as Array<Record<string, unknown>>)[1]!;
    expect(s.fan1).toBe(0);
    expect(s.chain_acn1 as number).toBeLessThan(m.model.chipsPerBoard);
    expect(s.chain_acs1 as string).toContain('x');
    const last = m.model.hashboards;
    expect(s[`chain_acn${last}`]).toBe(0);
    expect(s[`chain_rate${last}`]).toBe('');
    expect(s[`temp_pcb${last}`]).toBe('0-0-0-0');
    expect(s.temp2_1 as number).toBeGreaterThan(85);
    const health = JSON.parse((await web(m, '/cgi-bin/summary.cgi')).body).SUMMARY[0].status as Array<{ type: string; status: string }>;
    expect(health.filter((h) => h.status !== 's').map((h) => h.type).sort()).toEqual(['fans', 'rate', 'temp']);
    for (const k of ['fan-failure', 'missing-chip', 'board-down', 'high-temp'] as const) m.injectFault(k, false);
    const ok = ((await rpc(m, 'stats')).STATS as Array<Record<string, unknown>>)[1]!;
    expect(ok.chain_acn1).toBe(m.model.chipsPerBoard);
    expect(ok.fan1 as number).toBeGreaterThan(0);
  });

  it('zero hashrate keeps the API up; cannot-start drops 4028 but keeps the web; offline drops everything', async () => {
    const m = fleet.miners[2]!;
    m.injectFault('zero-hashrate');
    expect(((await rpc(m, 'summary')).SUMMARY as Array<Record<string, unknown>>)[0]!['GHS 5s']).toBe(0);
    m.injectFault('zero-hashrate', false);
    m.injectFault('cannot-start');
    await expect(rpcRaw(m.ip, fleet.ports.rpc, { command: 'summary' })).rejects.toThrow();
    expect((await web(m, '/cgi-bin/get_system_info.cgi')).status).toBe(200);
    m.injectFault('cannot-start', false);
    m.injectFault('offline');
    expect(m.state).toBe('offline');
    await expect(rpcRaw(m.ip, fleet.ports.rpc, { command: 'summary' })).rejects.toThrow();
    await expect(httpRequest(m.ip, fleet.ports.web, { path: '/' })).rejects.toThrow();
    m.injectFault('offline', false);
    expect((await rpc(m, 'version')).VERSION).toBeDefined();
  });

  it('illegal pool swaps pool 1 to a non-whitelisted pool and restores it when cleared', async () => {
    const m = fleet.miners[3]!;
    const orig = m.pools[0]!.url;
    m.injectFault('illegal-pool');
    const p = (await rpc(m, 'pools')).POOLS as Array<Record<string, unknown>>;
    expect(p[0]!.URL).not.toBe(orig);
    expect(String(p[0]!.User)).toMatch(/^hijack77\./);
    m.injectFault('illegal-pool', false);
    expect(m.pools[0]!.url).toBe(orig);
  });

  it('unknown addresses are reset like an absent host', async () => {
    await expect(rpcRaw('127.21.1.200', fleet.ports.rpc, { command: 'version' })).rejects.toThrow();
  });
});
