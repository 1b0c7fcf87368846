import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { md5CryptHash } from '../md5-crypt';
import type { FaultKind, WorkMode } from '../sim-types';
import { textReply, type WebReply, type WebRequest } from '../web-types';
import { firmwareFromImage } from './firmware-catalogue';
import { hms, round2, statusArray, stratumHost, whenSec, type JsonObject, type RpcOutcome, type RpcRequest } from './cgminer-common';
import type { SimMiner } from './sim-miner';

/** MicroBT Whatsminer: API v1/v2 on 4028 (§3.2, §3.3), v3 on 4433 (§3.4), LuCI redirect on 80. */

const CG_DESCRIPTION = 'cgminer 4.9.2';
const TOKEN_TTL_MS = 30 * 60_000;
const MAX_TOKENS = 32;

export type WhatsminerApi = 'v1' | 'v2' | 'v3';

export function whatsminerApi(m: SimMiner): WhatsminerApi {
  if (m.firmware.date >= '20241101') return 'v3';
  if (m.firmware.date >= '20220729') return 'v2';
  return 'v1';
}

function flat(letter: 'S' | 'E', when: number, code: number, msg: unknown, description = ''): JsonObject {
  return { STATUS: letter, When: when, Code: code, Msg: msg, Description: description };
}

function powerModeName(mode: WorkMode): string {
  return mode === 'low-power' ? 'Low' : mode === 'high' ? 'High' : 'Normal';
}

function mhs(ghs: number): number {
  return round2(ghs * 1000);
}

/** Error codes per §9.2 derived from the unit's faults: `{code: "YYYY-MM-DD hh:mm:ss"}`. */
export function whatsminerErrorCodes(m: SimMiner): Array<{ code: string; time: string; reason: string }> {
  const out: Array<{ code: string; time: string; reason: string }> = [];
  const at = (k: FaultKind): string => new Date(m.faultSince(k) ?? Date.now()).toISOString().replace('T', ' ').slice(0, 19);
  if (m.hasFault('fan-failure')) out.push({ code: '110', time: at('fan-failure'), reason: 'Intake fan speed error.' });
  if (m.hasFault('board-down')) out.push({ code: `53${m.model.hashboards - 1}`, time: at('board-down'), reason: `Slot ${m.model.hashboards - 1} not found.` });
  if (m.hasFault('missing-chip')) out.push({ code: '530005', time: at('missing-chip'), reason: 'Slot 0 chip 5 too few nonce.' });
  if (m.hasFault('high-temp')) out.push({ code: '350', time: at('high-temp'), reason: 'Slot 0 temperature protecting.' });
  if (m.hasFault('zero-hashrate')) out.push({ code: '2010', time: at('zero-hashrate'), reason: 'All pools are disabled.' });
  return out;
}

function minerSn(m: SimMiner): string {
  // MicroBT serials: the 17-character label code followed by zero padding
  return m.sn === '' ? '' : `${m.sn}${'0'.repeat(16)}`;
}

function psuSn(m: SimMiner): string {
  return `1436B${String(2429603097 + m.index).padStart(10, '0')}`;
}

function ledStat(m: SimMiner): string {
  return m.blink ? 'red' : 'auto';
}

function summaryBody(m: SimMiner): JsonObject {
  const av = m.averages;
  const rt = m.hashrateGhs;
  const fans = m.fans;
  const boards = m.boards.filter((b) => b.present);
  const chipTemps = boards.flatMap((b) => b.tempChip);
  const sh = m.shares();
  const el = m.elapsed;
  const body: JsonObject = {
    Elapsed: el, 'MHS av': mhs(av.av), 'MHS 5s': mhs(rt), 'MHS 1m': mhs(rt), 'MHS 5m': mhs((rt + av.m30) / 2), 'MHS 15m': mhs(av.m30),
    'HS RT': mhs(rt), 'Found Blocks': 0, Getworks: Math.floor(el / 26), Accepted: sh.accepted, Rejected: sh.rejected,
    'Hardware Errors': boards.reduce((s, b) => s + b.hwErrors, 0), Utility: el ? round2((sh.accepted / el) * 60) : 0,
    Discarded: Math.floor(el * 24), Stale: sh.stale, 'Get Failures': 0, 'Local Work': Math.floor(el * 3186), 'Remote Failures': 0,
    'Network Blocks': Math.floor(el / 600), 'Total MH': Math.round(av.av * 1000 * el), 'Work Utility': round2(av.av / 49),
    'Difficulty Accepted': sh.accepted * 29257, 'Difficulty Rejected': 0, 'Difficulty Stale': 0, 'Best Share': 82000000 + m.index,
    Temperature: boards.length ? round2(boards.reduce((s, b) => s + b.tempPcb[2]!, 0) / boards.length) : 0,
    freq_avg: boards[0]?.freqMhz ?? 0, 'Fan Speed In': fans[0]?.rpm ?? 0, 'Fan Speed Out': fans[1]?.rpm ?? 0, Voltage: 1180,
    Power: m.powerW, Power_RT: m.powerW, 'Device Hardware%': 0.011, 'Device Rejected%': 0, 'Pool Rejected%': 0, 'Pool Stale%': 0,
    'Last getwork': 0, Uptime: el + 500, 'Hash Stable': el > 1500, 'Hash Stable Cost Seconds': 1538, 'Hash Deviation%': 0.1061,
    'Target Freq': boards[0]?.freqMhz ?? 0, 'Target MHS': mhs(m.model.idealGhs * m.modeFactor() * 0.92),
    'Env Temp': round2(boardsAmbient(m)), 'Power Mode': powerModeName(m.workMode), 'Factory Error Code Count': 0,
    'Factory GHS': Math.round(m.model.idealGhs), 'Power Limit': m.whatsminer.powerLimit,
    'Chip Temp Min': chipTemps.length ? Math.min(...chipTemps) : 0, 'Chip Temp Max': chipTemps.length ? Math.max(...chipTemps) : 0,
    'Chip Temp Avg': chipTemps.length ? round2(chipTemps.reduce((s, t) => s + t, 0) / chipTemps.length) : 0,
    'Power Current': Math.round(m.powerW / 12.3), 'Power Fanspeed': m.state === 'online' ? 9060 : 0, 'Liquid Cooling': false,
    'Security Mode': 0, MAC: m.mac, 'Firmware Version': `'${m.firmware.version}'`, 'CB Platform': 'H616', 'CB Version': 'V10',
    'Chip Data': 'K8EC374-2426 BINVE6-197806A',
  };
  if (whatsminerApi(m) === 'v1') {
    const errs = whatsminerErrorCodes(m);
    body['Error Code Count'] = errs.length;
    errs.forEach((e, i) => { body[`Error Code ${i}`] = Number(e.code); });
  }
  return body;
}

function boardsAmbient(m: SimMiner): number {
  const first = m.boards[0];
  return first && first.present ? first.tempPcb[0]! - 3 : 25;
}

function cgSummary(m: SimMiner, when: number): JsonObject {
  return { STATUS: statusArray('S', when, 11, 'Summary', CG_DESCRIPTION), SUMMARY: [summaryBody(m)], id: 1 };
}

function cgDevs(m: SimMiner, when: number): JsonObject {
  const fans = m.fans;
  const boards = m.boards.filter((b) => b.present);
  const sh = m.shares();
  return {
    STATUS: statusArray('S', when, 9, `${boards.length} ASC(s)`, CG_DESCRIPTION),
    DEVS: boards.map((b) => ({
      ASC: b.index, Name: 'SM', ID: b.index, Slot: b.index, Enabled: 'Y', Status: 'Alive',
      Temperature: round2((b.tempPcb[0]! + b.tempPcb[2]!) / 2), 'Chip Frequency': b.freqMhz, Frequency: b.freqMhz,
      'Fan Speed In': fans[0]?.rpm ?? 0, 'Fan Speed Out': fans[1]?.rpm ?? 0, 'MHS av': mhs(b.rateGhs), 'MHS 1m': mhs(b.rateGhs),
      Accepted: Math.floor(sh.accepted / m.model.hashboards), Rejected: Math.floor(sh.rejected / m.model.hashboards),
      'Device Elapsed': m.elapsed, 'Effective Chips': b.chips, 'PCB SN': b.sn,
      'Chip Temp Min': Math.min(...b.tempChip), 'Chip Temp Max': Math.max(...b.tempChip),
      'Chip Temp Avg': round2(b.tempChip.reduce((s, t) => s + t, 0) / b.tempChip.length), 'Factory GHS': Math.round(b.idealGhs),
    })),
    id: 1,
  };
}

function cgDevdetails(m: SimMiner, when: number): JsonObject {
  const boards = m.boards.filter((b) => b.present);
  return {
    STATUS: statusArray('S', when, 69, 'Device Details', CG_DESCRIPTION),
    DEVDETAILS: boards.map((b) => ({ DEVDETAILS: b.index, Name: 'SM', ID: b.index, Driver: 'bitmicro', Kernel: '', Model: m.model.reportedName })),
    id: 1,
  };
}

function cgPools(m: SimMiner, when: number): JsonObject {
  const active = m.activePool;
  const sh = m.shares();
  return {
    STATUS: statusArray('S', when, 7, `${m.pools.length} Pool(s)`, CG_DESCRIPTION),
    POOLS: m.pools.map((p, i) => {
      const on = i === active && m.mining;
      return {
        POOL: i + 1, URL: p.url, Status: p.url === '' ? 'Dead' : p.status, Priority: i, Quota: 1, 'Long Poll': 'N',
        Getworks: on ? Math.floor(m.elapsed / 26) : 0, Accepted: on ? sh.accepted : 0, Rejected: on ? sh.rejected : 0, Works: 0,
        Discarded: 0, Stale: on ? sh.stale : 0, 'Get Failures': 0, 'Remote Failures': 0, User: p.user,
        'Last Share Time': on ? hms(5 + (m.index % 30)) : '0', 'Diff1 Shares': 0, 'Proxy Type': '', Proxy: '',
        'Difficulty Accepted': on ? sh.accepted * 29257 : 0, 'Difficulty Rejected': 0, 'Difficulty Stale': 0,
        'Last Share Difficulty': on ? 29257 : 0, 'Work Difficulty': on ? 29257 : 0, 'Has Stratum': true, 'Stratum Active': on,
        'Stratum URL': on ? stratumHost(p.url) : '', 'Stratum Difficulty': on ? 29257 : 0, 'Best Share': on ? 82000000 : 0,
        'Pool Rejected%': 0, 'Pool Stale%': 0, 'Bad Work': 0, 'Current Block Height': 850000, 'Current Block Version': 536870912,
      };
    }),
    id: 1,
  };
}

const MINER_INFO_KEYS = ['ip', 'proto', 'netmask', 'gateway', 'dns', 'hostname', 'mac', 'ledstat', 'minersn', 'powersn'];

function minerInfo(m: SimMiner, keys: string[]): JsonObject {
  const all: JsonObject = {
    ip: m.ip, proto: m.network.dhcp ? 'dhcp' : 'static', netmask: m.network.netmask, gateway: m.network.gateway,
    dns: m.network.dns, hostname: m.network.hostname, mac: m.mac, ledstat: ledStat(m), minersn: minerSn(m), powersn: psuSn(m),
  };
  const out: JsonObject = {};
  for (const k of keys) if (k in all) out[k] = all[k];
  return out;
}

/** AES-256-ECB with zero padding, as the btminer daemon does. */
export function aesEcbEncrypt(key: Buffer, plain: string): string {
  const data = Buffer.from(plain, 'utf8');
  const padded = Buffer.alloc(Math.ceil(data.length / 16) * 16 || 16);
  data.copy(padded);
  const c = createCipheriv('aes-256-ecb', key, null);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(padded), c.final()]).toString('base64');
}

export function aesEcbDecrypt(key: Buffer, b64: string): string | null {
  try {
    const raw = Buffer.from(b64, 'base64');
    if (raw.length === 0 || raw.length % 16 !== 0) return null;
    const d = createDecipheriv('aes-256-ecb', key, null);
    d.setAutoPadding(false);
    let out = Buffer.concat([d.update(raw), d.final()]);
    // zero padding (asic-rs, daemon) or PKCS#7 (some clients)
    const last = out[out.length - 1] ?? 0;
    if (last > 0 && last <= 16 && out.subarray(out.length - last).every((b) => b === last)) out = out.subarray(0, out.length - last);
    let end = out.length;
    while (end > 0 && out[end - 1] === 0) end--;
    return out.subarray(0, end).toString('utf8');
  } catch {
    return null;
  }
}

function v2Key(m: SimMiner): string {
  return md5CryptHash(m.whatsminer.adminPassword, m.whatsminer.salt);
}

function aesKeyOf(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function issueToken(m: SimMiner, now: number): JsonObject {
  const time = String(Math.floor(now / 1000) % 10000).padStart(4, '0');
  const newsalt = randomBytes(6).toString('base64').replace(/[+/]/g, 'x').slice(0, 8);
  const sign = md5CryptHash(v2Key(m) + time, newsalt);
  for (const [t, exp] of m.tokens) if (exp <= now) m.tokens.delete(t);
  if (m.tokens.size >= MAX_TOKENS) {
    const oldest = m.tokens.keys().next().value;
    if (oldest !== undefined) m.tokens.delete(oldest);
  }
  m.tokens.set(sign, now + TOKEN_TTL_MS);
  return { time, salt: m.whatsminer.salt, newsalt };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

const ADMIN_PWD_RE = /^[A-Za-z0-9_]{1,8}$/;

/** Execute a decrypted privileged command; returns the plain reply + optional post-send action. */
function privileged(m: SimMiner, cmd: JsonObject, when: number, now: number): { reply: JsonObject; after?: () => void; upload?: (image: Buffer) => { reply: JsonObject; after?: () => void } } {
  const okReply = flat('S', when, 131, 'API command OK');
  const name = str(cmd.cmd) ?? '';
  switch (name) {
    case 'update_pools': {
      const pools = [1, 2, 3].map((i) => ({ url: str(cmd[`pool${i}`]) ?? '', user: str(cmd[`worker${i}`]) ?? '', password: str(cmd[`passwd${i}`]) ?? '' }));
      m.setPools(pools);
      return { reply: okReply, after: () => m.restartProcess() };
    }
    case 'reboot': return { reply: okReply, after: () => m.reboot() };
    case 'restart_btminer': return { reply: okReply, after: () => m.restartProcess() };
    case 'power_off': m.setWorkMode('sleep'); return { reply: okReply };
    case 'power_on': m.setWorkMode('normal'); return { reply: okReply };
    case 'set_low_power': m.setWorkMode('low-power'); return { reply: okReply };
    case 'set_normal_power': m.setWorkMode('normal'); return { reply: okReply };
    case 'set_high_power': m.setWorkMode('high'); return { reply: okReply };
    case 'set_led': m.blink = str(cmd.param) !== 'auto'; return { reply: okReply };
    case 'adjust_power_limit': {
      const w = Number(str(cmd.power_limit));
      if (!Number.isFinite(w) || w < 500 || w > 99999) return { reply: flat('E', when, 132, 'command error') };
      m.whatsminer.powerLimit = Math.round(w);
      return { reply: okReply, after: () => m.reboot() };
    }
    case 'set_target_freq': case 'set_power_pct': case 'set_power_pct_v2': {
      const pct = Number(str(cmd.percent));
      if (!Number.isFinite(pct)) return { reply: flat('E', when, 132, 'command error') };
      m.freqLevel = Math.max(50, Math.min(120, Math.round(name === 'set_target_freq' ? 100 + pct : pct)));
      return { reply: okReply };
    }
    case 'set_hostname': m.network.hostname = str(cmd.hostname) ?? m.network.hostname; return { reply: okReply };
    case 'net_config': {
      if (str(cmd.param) === 'dhcp') m.network = { ...m.network, dhcp: true, ip: m.ip };
      else m.network = { dhcp: false, ip: str(cmd.ip) ?? m.ip, netmask: str(cmd.mask) ?? m.network.netmask, gateway: str(cmd.gate) ?? m.network.gateway, dns: str(cmd.dns) ?? m.network.dns, hostname: str(cmd.host) ?? m.network.hostname };
      return { reply: okReply };
    }
    case 'update_pwd': {
      const old = str(cmd.old);
      const next = str(cmd.new);
      if (old !== m.whatsminer.adminPassword) return { reply: flat('E', when, 132, 'old password error') };
      if (!next || !ADMIN_PWD_RE.test(next)) return { reply: flat('E', when, 132, 'new password format error') };
      return { reply: okReply, after: () => { m.whatsminer.adminPassword = next; m.tokens.clear(); } };
    }
    case 'factory_reset': return { reply: okReply, after: () => { m.factoryReset(); m.reboot(); } };
    case 'upgrade_firmware': case 'update_firmware':
      // `ready`, then the client streams a 4-byte LE length + the image on this connection (§3.3)
      return {
        reply: flat('S', when, 131, 'ready'),
        upload: (image) => {
          const fw = firmwareFromImage(m, image, now);
          if (!fw) return { reply: flat('E', whenSec(now), 132, 'firmware check failed') };
          return { reply: flat('S', whenSec(now), 131, 'upgrade ok, rebooting'), after: () => m.upgradeFirmware(fw) };
        },
      };
    case 'enable_web_pools': case 'disable_web_pools': case 'set_temp_offset': case 'adjust_upfreq_speed': case 'set_poweroff_cool':
    case 'set_fan_zero_speed': case 'enable_btminer_fast_boot': case 'disable_btminer_fast_boot': case 'pre_power_on':
      return { reply: okReply };
    default:
      return { reply: flat('E', when, 14, 'invalid cmd') };
  }
}

const WRITE_COMMANDS = new Set([
  'update_pools', 'reboot', 'restart_btminer', 'power_off', 'power_on', 'set_led', 'set_low_power', 'set_normal_power', 'set_high_power',
  'adjust_power_limit', 'set_power_pct', 'set_power_pct_v2', 'set_target_freq', 'set_temp_offset', 'adjust_upfreq_speed',
  'set_poweroff_cool', 'set_fan_zero_speed', 'enable_btminer_fast_boot', 'disable_btminer_fast_boot', 'enable_web_pools',
  'disable_web_pools', 'set_hostname', 'net_config', 'update_pwd', 'factory_reset', 'pre_power_on', 'upgrade_firmware', 'update_firmware',
]);

function reply(obj: JsonObject, req: RpcRequest, after?: () => void): RpcOutcome {
  const text = JSON.stringify(obj);
  return after ? { kind: 'reply', text, after, json: true } : { kind: 'reply', text, json: req.json };
}

function handleEncrypted(m: SimMiner, req: RpcRequest, when: number, now: number): RpcOutcome {
  const denied = flat('E', when, 45, "can't access write cmd");
  if (!m.whatsminer.apiSwitch || whatsminerApi(m) === 'v3') return reply(denied, req);
  const key = aesKeyOf(v2Key(m));
  const data = str(req.body?.data) ?? '';
  const plain = aesEcbDecrypt(key, data);
  let cmd: JsonObject | null = null;
  if (plain) {
    try {
      const v: unknown = JSON.parse(plain);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) cmd = v as JsonObject;
    } catch {
      cmd = null;
    }
  }
  const token = str(cmd?.token);
  const exp = token ? m.tokens.get(token) : undefined;
  if (!cmd || !token || exp === undefined || exp <= now) return reply(flat('E', when, 135, 'check token err'), req);
  const { reply: r, after, upload } = privileged(m, cmd, when, now);
  const enc = { enc: aesEcbEncrypt(key, JSON.stringify(r)) };
  const out = reply(enc, req, after);
  if (upload && out.kind === 'reply') {
    out.upload = (image) => {
      const done = upload(image);
      return { text: JSON.stringify({ enc: aesEcbEncrypt(key, JSON.stringify(done.reply)) }), after: done.after };
    };
  }
  return out;
}

/** One request on 4028 for a Whatsminer. */
export function whatsminerRpc(m: SimMiner, req: RpcRequest, now: number): RpcOutcome {
  const when = whenSec(now);
  const api = whatsminerApi(m);
  if (req.command === '__enc__') return handleEncrypted(m, req, when, now);
  const cmd = req.command;
  if (cmd.includes('+')) {
    // cgminer-derived reads may be joined; btminer `get_*`/`status` may not (§3.2)
    const out: JsonObject = {};
    for (const c of [...new Set(cmd.split('+').map((s) => s.trim()).filter(Boolean))]) {
      const r = cgRead(m, c, when);
      out[c] = [r ?? flat('E', when, 45, 'command join err')];
    }
    out.id = 1;
    return reply(out, req);
  }
  const cg = cgRead(m, cmd, when);
  if (cg) return reply(cg, req);
  const body = req.body ?? {};
  switch (cmd) {
    case 'get_version': case 'version':
      if (cmd === 'version') {
        return reply({ STATUS: statusArray('S', when, 22, 'CGMiner versions', 'btminer'), VERSION: [{ CGMiner: '4.9.2', API: '3.7', Miner: m.firmware.version }], id: 1 }, req);
      }
      return reply(flat('S', when, 131, { api_ver: m.firmware.apiVersion, fw_ver: m.firmware.version, platform: 'H616' }, api === 'v1' ? 'whatsminer v1.4.0' : ''), req);
    case 'get_miner_info': {
      const info = str(body.info) ?? req.parameter;
      if (!info && m.firmware.version === '20220422.18.REL') {
        // §3.5: this build answers a bare get_miner_info with `…"ledstat":"auto",}` (trailing comma)
        const keys = [...MINER_INFO_KEYS.filter((k) => k !== 'ledstat'), 'ledstat'];
        const text = JSON.stringify(flat('S', when, 131, minerInfo(m, keys))).replace(/("ledstat":"[^"]*")\}/, '$1,}');
        return { kind: 'reply', text, json: true };
      }
      const keys = info ? info.split(',').map((s) => s.trim()) : MINER_INFO_KEYS;
      return reply(flat('S', when, 131, minerInfo(m, keys)), req);
    }
    case 'get_psu':
      return reply(flat('S', when, 131, { name: 'P222B', model: 'P222B', hw_version: '', sw_version: '230208.220429', fan_speed: String(m.state === 'online' ? 6000 : 0) }), req);
    case 'status':
      if (api === 'v1') return reply(flat('S', when, 131, { btmineroff: String(m.workMode === 'sleep'), 'Firmware Version': `'${m.firmware.version}'` }, 'whatsminer v1.4.0'), req);
      return reply(flat('S', when, 131, {
        mineroff: String(m.workMode === 'sleep'), mineroff_reason: m.workMode === 'sleep' ? 'power off by api' : '',
        mineroff_time: '', FirmwareVersion: `'${m.firmware.version}'`, power_mode: powerModeName(m.workMode).toLowerCase(),
        power_limit_set: String(m.whatsminer.powerLimit), hash_percent: '0',
      }), req);
    case 'get_error_code':
      if (api === 'v1') return reply(flat('E', when, 14, 'invalid cmd'), req);
      return reply(flat('S', when, 131, { error_code: whatsminerErrorCodes(m).map((e) => ({ [e.code]: e.time })) }), req);
    case 'get_token':
      return reply(flat('S', when, 134, issueToken(m, now)), req);
    default:
      if (WRITE_COMMANDS.has(cmd)) return reply(flat('E', when, 45, "can't access write cmd"), req);
      return reply(flat('E', when, 14, 'invalid cmd'), req);
  }
}

function cgRead(m: SimMiner, cmd: string, when: number): JsonObject | null {
  switch (cmd) {
    case 'summary': return cgSummary(m, when);
    case 'pools': return cgPools(m, when);
    case 'devs': case 'edevs': return cgDevs(m, when);
    case 'devdetails': return cgDevdetails(m, when);
    default: return null;
  }
}

// ------------------------------------------------------------------ web

export function whatsminerWeb(m: SimMiner, req: WebRequest): WebReply {
  if (req.path === '/' || req.path === '/index.html') {
    return {
      status: 307,
      headers: { Location: `https://${m.ip}/cgi-bin/luci`, 'Content-Type': 'text/html' },
      body: `<html><head><meta http-equiv="refresh" content="0; URL=https://${m.ip}/cgi-bin/luci" /></head><body><a href="/cgi-bin/luci">LuCI - Lua Configuration Interface</a></body></html>`,
    };
  }
  if (req.path.startsWith('/cgi-bin/luci')) {
    return textReply(`<!DOCTYPE html><html><head><title>WhatsMiner - LuCI</title></head><body><form method="post" action="/cgi-bin/luci"><input name="luci_username" value="admin"/><input type="password" name="luci_password"/></form></body></html>`, 200, 'text/html');
  }
  return textReply('<html><body><h1>404 Not Found</h1></body></html>', 404, 'text/html');
}

// ------------------------------------------------------------------ API v3 (4433)

function v3Token(cmd: string, password: string, salt: string, ts: string): string {
  return createHash('sha256').update(cmd + password + salt + ts).digest('base64').slice(0, 8);
}

function v3Msg(code: number, when: number, msg: unknown, desc: string): JsonObject {
  return { code, when, msg, desc };
}

export function v3DeviceInfo(m: SimMiner): JsonObject {
  const boards = m.boards;
  const info: JsonObject = {
    network: { ip: m.ip, proto: m.network.dhcp ? 'dhcp' : 'static', netmask: m.network.netmask, dns: m.network.dns, mac: m.mac, gateway: m.network.gateway, hostname: m.network.hostname },
    miner: {
      working: String(m.mining), type: m.model.reportedName, 'hash-board': m.model.reportedName.split('_')[1] ?? '',
      'detect-hash-rate': boards.map((b) => Math.round(b.rateGhs)).join(':'), cointype: 'BTC/BCH/BSV', 'pool-strategy': 'FAILOVER',
      heatmode: '', 'hash-percent': '0', 'fast-boot': 'disable', 'board-num': String(boards.filter((b) => b.present).length),
      ...Object.fromEntries(boards.map((b) => [`pcbsn${b.index}`, b.sn])), 'miner-sn': minerSn(m),
      'power-limit-set': String(m.whatsminer.powerLimit), UpfreqSpeed: '', 'web-pool': 1, permission: 'super=255 user1=0 user2=0 user3=0',
    },
    system: { api: m.firmware.apiVersion, platform: 'H616', fwversion: m.firmware.version, 'control-board-version': 'CB6V10', apiswitch: '1', ledstatus: ledStat(m) },
    power: { type: 'P221B', mode: '1', hwversion: 'RT0159', swversion: '230224.220429', model: 'P221B', iin: round2(m.powerW / 231.5), vin: 231.5, vout: 1222, pin: m.powerW, fanspeed: m.state === 'online' ? 6344 : 0, temp0: 45, sn: psuSn(m), vendor: '1' },
    salt: m.whatsminer.salt,
    'error-code': whatsminerErrorCodes(m).map((e) => ({ [e.code]: e.time, reason: e.reason })),
  };
  return info;
}

function v3Status(m: SimMiner, part: string): JsonObject {
  const av = m.averages;
  const boards = m.boards.filter((b) => b.present);
  const fans = m.fans;
  const chip = boards.flatMap((b) => b.tempChip);
  const th = (ghs: number): number => Math.round(ghs) / 1000;
  if (part === 'edevs') {
    return {
      edevs: boards.map((b) => ({
        id: b.index, status: 'alive', 'effective-chips': b.chips, freq: b.freqMhz, 'hash-realtime': th(b.rateGhs), 'hash-average': th(b.rateGhs),
        'factory-hash': th(b.idealGhs), 'chip-temp-min': Math.min(...b.tempChip), 'chip-temp-max': Math.max(...b.tempChip),
        'chip-temp-avg': round2(b.tempChip.reduce((s, t) => s + t, 0) / b.tempChip.length),
      })),
    };
  }
  if (part === 'pools') {
    const active = m.activePool;
    return { pools: m.pools.map((p, i) => ({ url: p.url, account: p.user, 'pool-priority': i, status: p.url === '' ? 'dead' : p.status.toLowerCase(), 'stratum-active': i === active && m.mining })) };
  }
  return {
    summary: {
      elapsed: m.elapsed, 'bootup-time': m.elapsed + 500, 'hash-realtime': th(m.hashrateGhs), 'hash-average': th(av.av), 'hash-1min': th(m.hashrateGhs),
      'hash-15min': th(av.m30), 'factory-hash': th(m.model.idealGhs), 'power-realtime': m.powerW, 'power-5min': m.powerW,
      'power-limit': m.whatsminer.powerLimit, 'power-rate': m.hashrateGhs > 0 ? round2(m.powerW / (m.hashrateGhs / 1000)) : 0,
      'environment-temperature': round2(boardsAmbient(m)), 'board-temperature': boards.map((b) => b.tempPcb[0]!),
      'chip-temp-min': chip.length ? Math.min(...chip) : 0, 'chip-temp-max': chip.length ? Math.max(...chip) : 0,
      'chip-temp-avg': chip.length ? round2(chip.reduce((s, t) => s + t, 0) / chip.length) : 0,
      'fan-speed-in': fans[0]?.rpm ?? 0, 'fan-speed-out': fans[1]?.rpm ?? 0, 'freq-avg': boards[0]?.freqMhz ?? 0, 'up-freq-finish': 1, Debug: '',
    },
  };
}

function decryptV3Param(param: unknown, key: Buffer): unknown {
  if (typeof param !== 'string') return param;
  const plain = aesEcbDecrypt(key, param);
  if (plain === null) return param;
  try {
    return JSON.parse(plain) as unknown;
  } catch {
    return param;
  }
}

/** One v3 request (already de-framed). Returns the reply object and an optional post-send action. */
export function whatsminerV3(m: SimMiner, req: JsonObject, now: number): { reply: JsonObject; after?: () => void } {
  const when = whenSec(now);
  const cmd = str(req.cmd) ?? '';
  if (cmd === 'get.device.info') {
    const info = v3DeviceInfo(m);
    const p = str(req.param);
    return { reply: v3Msg(0, when, p && p in info ? { [p]: info[p] } : info, cmd) };
  }
  if (cmd === 'get.miner.status') return { reply: v3Msg(0, when, v3Status(m, str(req.param) ?? 'summary'), cmd) };
  if (cmd === 'get.miner.setting') return { reply: v3Msg(0, when, { 'power-mode': powerModeName(m.workMode).toLowerCase(), 'power-limit': m.whatsminer.powerLimit, 'web-pool': 1 }, cmd) };
  if (!cmd.startsWith('set.')) return { reply: v3Msg(-1, when, 'invalid command', cmd) };
  const ts = str(req.ts) ?? '';
  const account = str(req.account) ?? '';
  const expect = v3Token(cmd, m.whatsminer.v3Password, m.whatsminer.salt, ts);
  if (account !== 'super' || str(req.token) !== expect) return { reply: v3Msg(-4, when, 'token error', cmd) };
  const key = createHash('sha256').update(cmd + m.whatsminer.v3Password + m.whatsminer.salt + ts).digest();
  const okR = v3Msg(0, when, 'ok', cmd);
  const param = req.param;
  switch (cmd) {
    case 'set.system.reboot': return { reply: okR, after: () => m.reboot() };
    case 'set.system.factory_reset': return { reply: okR, after: () => { m.factoryReset(); m.reboot(); } };
    case 'set.system.led': m.blink = param !== 'auto'; return { reply: okR };
    case 'set.system.net_config': {
      // "dhcp", or a static setting {ip, mask, gate, dns, host} (same keys as v2 net_config)
      const o = (typeof param === 'object' && param !== null ? param : {}) as JsonObject;
      if (param === 'dhcp' || str(o.proto) === 'dhcp') m.network = { ...m.network, dhcp: true, ip: m.ip };
      else if (str(o.ip)) m.network = { dhcp: false, ip: str(o.ip) ?? m.ip, netmask: str(o.mask) ?? m.network.netmask, gateway: str(o.gate) ?? m.network.gateway, dns: str(o.dns) ?? m.network.dns, hostname: str(o.host) ?? m.network.hostname };
      else return { reply: v3Msg(-1, when, 'invalid param', cmd) };
      return { reply: okR };
    }
    case 'set.miner.service': {
      const s = str(param);
      if (s === 'stop') m.setWorkMode('sleep');
      else if (s === 'start') m.setWorkMode('normal');
      else if (s === 'restart') return { reply: okR, after: () => m.restartProcess() };
      else return { reply: v3Msg(-1, when, 'invalid param', cmd) };
      return { reply: okR };
    }
    case 'set.miner.pools': {
      const list = decryptV3Param(param, key);
      if (!Array.isArray(list)) return { reply: v3Msg(-1, when, 'invalid param', cmd) };
      m.setPools(list.map((p) => {
        const o = (typeof p === 'object' && p !== null ? p : {}) as JsonObject;
        return { url: str(o.pool) ?? '', user: str(o.worker) ?? '', password: str(o.passwd) ?? '' };
      }));
      return { reply: okR, after: () => m.restartProcess() };
    }
    case 'set.miner.power_mode': {
      const v = str(param);
      const mode: WorkMode | undefined = v === 'low' || v === '1' ? 'low-power' : v === 'high' || v === '2' ? 'high' : v === 'normal' || v === '0' ? 'normal' : undefined;
      if (!mode) return { reply: v3Msg(-1, when, 'invalid param', cmd) };
      m.setWorkMode(mode);
      return { reply: okR };
    }
    case 'set.miner.power_limit': {
      const w = Number(param);
      if (!Number.isFinite(w)) return { reply: v3Msg(-1, when, 'invalid param', cmd) };
      m.whatsminer.powerLimit = Math.round(w);
      return { reply: okR };
    }
    case 'set.user.change_passwd': {
      const p = decryptV3Param(param, key);
      const o = (typeof p === 'object' && p !== null ? p : {}) as JsonObject;
      const next = str(o.new) ?? str(o.password);
      if (!next) return { reply: v3Msg(-1, when, 'invalid param', cmd) };
      return { reply: okR, after: () => { m.whatsminer.v3Password = next; } };
    }
    default:
      return { reply: okR };
  }
}
