import type { SimEnv } from '../sim-types';
import { challengeHeader, verifyDigest } from '../digest-auth';
import { jsonReply, parseJsonBody, textReply, type WebReply, type WebRequest } from '../web-types';
import {
  CGMINER_COMMANDS, accessDenied, groupedChipString, hms, invalidCommand, round2, statusArray, stratumHost, whenSec,
  type CgFamilyHandler, type JsonObject, type RpcRequest,
} from './cgminer-common';
import { firmwareFromUpload } from './firmware-catalogue';
import type { SimMiner } from './sim-miner';

/** Stock Antminer (bmminer/cgminer RPC on 4028 + lighttpd CGI on 80), miner-protocols.md §1, §2. */

const DESCRIPTION = 'cgminer 1.0.0';
/** default api-groups `A:stats:pools:devs:summary:version` (§1.4) */
const STOCK_ALLOWED = new Set(['version', 'summary', 'pools', 'devs', 'stats']);
const SERVER_HEADER = 'lighttpd/1.4.32';

/** Builds dated ≥ 2023-07 carry the "new API" (stats/summary/pools.cgi, miner_type.cgi, RPC new_api). */
export function hasNewApi(m: SimMiner): boolean {
  return m.firmware.date >= '20230701';
}

function workModeCode(m: SimMiner): number {
  switch (m.workMode) {
    case 'sleep': return 1;
    case 'high': return 2;
    case 'low-power': return 3;
    default: return 0;
  }
}

function infoBlock(m: SimMiner): JsonObject {
  return { miner_version: hasNewApi(m) ? 'uart_trans.1.3' : '49.0.1.3', CompileTime: m.firmware.compileTime, type: m.model.reportedName };
}

function chainPower(m: SimMiner): string | undefined {
  const id = m.model.id;
  return id === 'antminer-s21' || id === 'antminer-t21' || id === 'antminer-s19-xp-hyd' ? `${m.powerW} W` : undefined;
}

export function stockVersion(m: SimMiner, when: number): JsonObject {
  return {
    STATUS: statusArray('S', when, 22, 'CGMiner versions', DESCRIPTION),
    VERSION: [{ BMMiner: '1.0.0', API: '3.1', Miner: infoBlock(m).miner_version, CompileTime: m.firmware.compileTime, Type: m.model.reportedName }],
    id: 1,
  };
}

export function stockSummary(m: SimMiner, when: number): JsonObject {
  const el = m.apiUp ? m.elapsed : 0;
  const rate = m.hashrateGhs;
  const av = m.averages;
  const sh = m.shares();
  const hw = m.boards.reduce((s, b) => s + b.hwErrors, 0);
  return {
    STATUS: statusArray('S', when, 11, 'Summary', DESCRIPTION),
    SUMMARY: [{
      Elapsed: el, 'GHS 5s': round2(rate), 'GHS av': av.av, 'GHS 30m': av.m30, 'Found Blocks': 0, Getwork: Math.floor(el / 13),
      Accepted: sh.accepted, Rejected: sh.rejected, 'Hardware Errors': hw, Utility: el ? round2((sh.accepted / el) * 60) : 0,
      Discarded: Math.floor(el * 90), Stale: sh.stale, 'Get Failures': 0, 'Local Work': Math.floor(el * 90),
      'Remote Failures': 0, 'Network Blocks': Math.floor(el / 600), 'Total MH': Math.round(av.av * 1000 * el),
      'Work Utility': round2(av.av * 14.9), 'Difficulty Accepted': sh.accepted * 524288, 'Difficulty Rejected': sh.rejected * 524288,
      'Difficulty Stale': 0, 'Best Share': 12904207043 + m.index, 'Device Hardware%': 0, 'Device Rejected%': 0,
      'Pool Rejected%': sh.accepted ? round2((sh.rejected / (sh.accepted + sh.rejected)) * 100) : 0, 'Pool Stale%': 0,
      'Last getwork': when,
    }],
    id: 1,
  };
}

export function stockPools(m: SimMiner, when: number): JsonObject {
  const active = m.activePool;
  const sh = m.shares();
  return {
    STATUS: statusArray('S', when, 7, `${m.pools.length} Pool(s)`, DESCRIPTION),
    POOLS: m.pools.map((p, i) => {
      const on = i === active && m.mining;
      const alive = p.url !== '' && p.status === 'Alive';
      return {
        POOL: i, URL: p.url, Status: p.url === '' ? 'Dead' : p.status, Priority: i, Quota: 1, 'Long Poll': 'N',
        Getworks: on ? Math.floor(m.elapsed / 13) : alive ? 3 : 0, Accepted: on ? sh.accepted : 0, Rejected: on ? sh.rejected : 0,
        Discarded: on ? Math.floor(m.elapsed * 90) : 0, Stale: on ? sh.stale : 0, 'Get Failures': alive ? 0 : 3, 'Remote Failures': 0,
        User: p.user, 'Last Share Time': on ? hms(3 + (m.index % 20)) : '0', Diff: on ? '524K' : '', 'Diff1 Shares': 0,
        'Proxy Type': '', Proxy: '', 'Difficulty Accepted': on ? sh.accepted * 524288 : 0, 'Difficulty Rejected': on ? sh.rejected * 524288 : 0,
        'Difficulty Stale': 0, 'Last Share Difficulty': on ? 524288 : 0, 'Has Stratum': true, 'Stratum Active': on,
        'Stratum URL': on ? stratumHost(p.url) : '', 'Has GBT': false, 'Best Share': on ? 12904207043 : 0,
        'Pool Rejected%': 0, 'Pool Stale%%': 0,
      };
    }),
    id: 1,
  };
}

export function stockDevs(m: SimMiner, when: number): JsonObject {
  const sh = m.shares();
  return {
    STATUS: statusArray('S', when, 9, '1 ASC(s)', DESCRIPTION),
    DEVS: [{
      ASC: 0, Name: 'BTM_SOC', ID: 0, Enabled: 'Y', Status: 'Alive', Tenperature: 0, 'MHS av': 0, 'MHS 5s': 0,
      Accepted: sh.accepted, Rejected: sh.rejected, 'Hardware Errors': 0, Utility: 0, 'Last Share Pool': 0,
      'Last Share Time': when - 3, 'Total MH': 0, 'Diff1 Work': 0, 'Difficulty Accepted': sh.accepted * 524288,
      'Difficulty Rejected': sh.rejected * 524288, 'Last Share Difficulty': when - 3, 'Last Valid Work': when - 3,
      'Device Hardware%': 0, 'Device Rejected%': 0, 'Device Elapsed': m.elapsed,
    }],
    id: 1,
  };
}

/** Old layout: STATS[0] identity + STATS[1] flat keys, 4 chain slots (§1.5). */
export function stockStatsOld(m: SimMiner, when: number): JsonObject {
  const boards = m.boards;
  const fans = m.fans;
  const av = m.averages;
  const present = boards.filter((b) => b.present);
  const flat: JsonObject = {
    STATS: 0, ID: 'BTM_SOC0', Elapsed: m.elapsed, Calls: 0, Wait: 0, Max: 0, Min: 99999999,
    'GHS 5s': round2(m.hashrateGhs), 'GHS av': av.av, rate_30m: av.m30, Mode: 2, miner_count: present.length,
    frequency: present[0]?.freqMhz ?? 0, fan_num: m.model.fans,
  };
  for (let i = 1; i <= 4; i++) flat[`fan${i}`] = fans[i - 1]?.rpm ?? 0;
  flat.temp_num = present.length;
  for (let i = 1; i <= 4; i++) {
    const b = boards[i - 1];
    if (i <= 3) {
      flat[`temp${i}`] = b && b.present ? Math.max(...b.tempPcb) : 0;
      flat[`temp2_${i}`] = b && b.present ? Math.max(...b.tempChip) : 0;
    }
  }
  for (const key of ['pcb', 'chip', 'pic'] as const) {
    for (let i = 1; i <= 4; i++) {
      const b = boards[i - 1];
      const arr = !b ? [0, 0, 0, 0] : key === 'pcb' ? b.tempPcb : key === 'chip' ? b.tempChip : b.tempPic;
      flat[`temp_${key}${i}`] = arr.join('-');
    }
  }
  flat.total_rateideal = m.model.idealGhs;
  flat.rate_unit = 'GH';
  flat.total_freqavg = present[0]?.freqMhz ?? 0;
  flat.total_acn = boards.reduce((s, b) => s + b.chips, 0);
  flat['total rate'] = round2(m.hashrateGhs);
  flat.temp_max = 0;
  flat.no_matching_work = Math.floor(m.elapsed / 80);
  for (let i = 1; i <= 4; i++) flat[`chain_acn${i}`] = boards[i - 1]?.chips ?? 0;
  for (let i = 1; i <= 4; i++) flat[`chain_acs${i}`] = groupedChipString(boards[i - 1]?.chipStatus ?? '', m.model.chipsPerDomain);
  for (let i = 1; i <= 4; i++) flat[`chain_hw${i}`] = boards[i - 1]?.hwErrors ?? 0;
  for (let i = 1; i <= 4; i++) {
    const b = boards[i - 1];
    flat[`chain_rate${i}`] = b && b.present ? b.rateGhs.toFixed(2) : '';
  }
  for (let i = 1; i <= 4; i++) flat[`freq${i}`] = boards[i - 1]?.freqMhz ?? 0;
  const cp = chainPower(m);
  if (cp) flat.chain_power = cp;
  flat.miner_version = infoBlock(m).miner_version;
  flat.miner_id = m.mac.replace(/:/g, '').toLowerCase().padStart(16, '8');
  return {
    STATUS: statusArray('S', when, 70, 'CGMiner stats', DESCRIPTION),
    STATS: [{ BMMiner: '1.0.0', Miner: infoBlock(m).miner_version, CompileTime: m.firmware.compileTime, Type: m.model.reportedName }, flat],
    id: 1,
  };
}

function newStatus(when: number, msg: string): JsonObject {
  return { STATUS: 'S', when, Msg: msg, api_version: '1.0.0' };
}

/** New layout (`new_api:true` / stats.cgi): STATUS object, INFO, chain[] (§1.5). */
export function stockStatsNew(m: SimMiner, when: number): JsonObject {
  const boards = m.boards.filter((b) => b.present);
  const av = m.averages;
  const totalHw = boards.reduce((s, b) => s + b.hwErrors, 0);
  const stats: JsonObject = {
    elapsed: m.elapsed, rate_5s: round2(m.hashrateGhs), rate_30m: av.m30, rate_avg: av.av, rate_ideal: m.model.idealGhs,
    rate_unit: 'GH/s', chain_num: boards.length, fan_num: m.model.fans, fan: m.fans.map((f) => f.rpm),
    hwp_total: round2(totalHw / Math.max(1, m.shares().accepted * 100)), 'miner-mode': workModeCode(m), 'freq-level': m.freqLevel,
  };
  const cp = chainPower(m);
  if (cp) stats.chain_power = cp;
  stats.chain = boards.map((b) => ({
    index: b.index, freq_avg: b.freqMhz, rate_ideal: b.idealGhs, rate_real: b.rateGhs, asic_num: b.chips,
    asic: groupedChipString(b.chipStatus, m.model.chipsPerDomain), temp_pic: b.tempPic, temp_pcb: b.tempPcb, temp_chip: b.tempChip,
    hw: b.hwErrors, eeprom_loaded: true, sn: b.sn, hwp: 0,
  }));
  return { STATUS: newStatus(when, 'stats'), INFO: infoBlock(m), STATS: [stats] };
}

/** The health array summary.cgi carries; pyasic reports every non-`s` entry as an error (§9.1). */
function healthArray(m: SimMiner): JsonObject[] {
  const ok = (type: string): JsonObject => ({ type, status: 's', code: 0, msg: '' });
  const rate = ((): JsonObject => {
    if (m.workMode === 'sleep') return ok('rate');
    if (!m.apiUp || m.hasFault('zero-hashrate')) return { type: 'rate', status: 'e', code: 1, msg: 'Hashrate is 0, mining stopped' };
    if (m.hasFault('board-down')) return { type: 'rate', status: 'e', code: 2, msg: `Chain ${m.model.hashboards - 1} not found` };
    if (m.hasFault('missing-chip')) {
      return { type: 'rate', status: 'w', code: 3, msg: `Chain 0 asic number ${m.boards[0]?.chips ?? 0} less than ${m.model.chipsPerBoard}` };
    }
    return ok('rate');
  })();
  const network = m.activePool < 0 ? { type: 'network', status: 'e', code: 1, msg: 'All pools are dead' } : ok('network');
  const fans = m.hasFault('fan-failure') && m.model.fans > 0 ? { type: 'fans', status: 'e', code: 1, msg: 'Fan 1 lost' } : ok('fans');
  const temp = m.hasFault('high-temp') ? { type: 'temp', status: 'w', code: 1, msg: 'Temperature is too high' } : ok('temp');
  return [rate, network, fans, temp];
}

export function stockSummaryNew(m: SimMiner, when: number): JsonObject {
  const av = m.averages;
  return {
    STATUS: newStatus(when, 'summary'), INFO: infoBlock(m),
    SUMMARY: [{
      elapsed: m.elapsed, rate_5s: round2(m.hashrateGhs), rate_30m: av.m30, rate_avg: av.av, rate_ideal: m.model.idealGhs,
      rate_unit: 'GH/s', hw_all: m.boards.reduce((s, b) => s + b.hwErrors, 0), bestshare: 8911037211 + m.index, status: healthArray(m),
    }],
  };
}

export function stockPoolsNew(m: SimMiner, when: number): JsonObject {
  const active = m.activePool;
  const sh = m.shares();
  return {
    STATUS: newStatus(when, 'pools'), INFO: infoBlock(m),
    POOLS: m.pools.map((p, i) => {
      const on = i === active && m.mining;
      return {
        index: i, url: p.url, user: p.user, status: p.url === '' ? 'Dead' : p.status, priority: i, getworks: on ? Math.floor(m.elapsed / 13) : 0,
        accepted: on ? sh.accepted : 0, rejected: on ? sh.rejected : 0, discarded: 0, stale: on ? sh.stale : 0, diff: on ? '524K' : '',
        diff1: 0, diffa: on ? sh.accepted * 524288 : 0, diffr: on ? sh.rejected * 524288 : 0, diffs: 0, lsdiff: on ? 524288 : 0,
        lstime: on ? hms(3 + (m.index % 20)) : '0:00:00',
      };
    }),
  };
}

export const antminerStockRpc: CgFamilyHandler = {
  description: () => DESCRIPTION,
  single(m: SimMiner, req: RpcRequest, now: number) {
    const when = whenSec(now);
    const cmd = req.command;
    if (!CGMINER_COMMANDS.has(cmd)) return { reply: invalidCommand(when, DESCRIPTION) };
    if (!STOCK_ALLOWED.has(cmd)) return { reply: accessDenied(when, cmd, DESCRIPTION) };
    const newApi = req.body?.new_api === true && hasNewApi(m);
    switch (cmd) {
      case 'version': return { reply: stockVersion(m, when) };
      case 'summary': return { reply: newApi ? stockSummaryNew(m, when) : stockSummary(m, when) };
      case 'pools': return { reply: newApi ? stockPoolsNew(m, when) : stockPools(m, when) };
      case 'devs': return { reply: stockDevs(m, when) };
      default: return { reply: newApi ? stockStatsNew(m, when) : stockStatsOld(m, when) };
    }
  },
};

// ------------------------------------------------------------------ web (CGI)

function unauthorized(env: SimEnv, m: SimMiner): WebReply {
  return {
    status: 401,
    headers: { 'WWW-Authenticate': challengeHeader(env.secret, env.now(), m.ip), 'Content-Type': 'text/html', Server: SERVER_HEADER },
    body: '<?xml version="1.0" encoding="iso-8859-1"?>\n<html><head><title>401 - Unauthorized</title></head><body><h1>401 - Unauthorized</h1></body></html>\n',
  };
}

function notFound(): WebReply {
  return { status: 404, headers: { 'Content-Type': 'text/html', Server: SERVER_HEADER }, body: '<html><head><title>404 - Not Found</title></head><body><h1>404 - Not Found</h1></body></html>\n' };
}

function ok(body: unknown): WebReply {
  return jsonReply(body, 200, { Server: SERVER_HEADER });
}

function strOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export function stockMinerConf(m: SimMiner): JsonObject {
  return {
    pools: m.pools.map((p) => ({ url: p.url, user: p.user, pass: p.password })),
    'api-listen': true, 'api-network': true, 'api-groups': 'A:stats:pools:devs:summary:version', 'api-allow': 'A:0/0,W:*',
    'bitmain-fan-ctrl': m.fanCtrl, 'bitmain-fan-pwm': String(m.fanPwm), 'bitmain-use-vil': true,
    'bitmain-freq': String(m.model.freqMhz), 'bitmain-voltage': '1400', 'bitmain-ccdelay': '0', 'bitmain-pwth': '0',
    'bitmain-work-mode': String(workModeCode(m)), 'bitmain-freq-level': String(m.freqLevel),
  };
}

const MODE_BY_CODE: Record<string, SimMiner['workMode']> = { '0': 'normal', '1': 'sleep', '2': 'high', '3': 'low-power' };

/** Apply a (partial) set_miner_conf body; accepts miner-mode or bitmain-work-mode, ints or strings (§2.3). */
export function applyMinerConf(m: SimMiner, body: Record<string, unknown>): string | null {
  if (Array.isArray(body.pools)) {
    const pools = (body.pools as unknown[]).map((p) => {
      const o = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
      return { url: strOf(o.url) ?? '', user: strOf(o.user) ?? '', password: strOf(o.pass) ?? strOf(o.password) ?? '' };
    });
    for (const p of pools) if (p.url && !/^[a-z0-9+]+:\/\/[^\s/]+:\d+/i.test(p.url) && !/^[^\s/:]+:\d+$/.test(p.url)) return `invalid pool url ${p.url}`;
    m.setPools(pools);
  }
  const mode = strOf(body['miner-mode']) ?? strOf(body['bitmain-work-mode']);
  if (mode !== undefined) {
    const wm = MODE_BY_CODE[mode.trim()];
    if (!wm) return `invalid work mode ${mode}`;
    if (!m.model.workModes.includes(wm)) return `work mode ${wm} not supported`;
    m.setWorkMode(wm);
  }
  const fanCtrl = body['bitmain-fan-ctrl'];
  if (typeof fanCtrl === 'boolean') m.fanCtrl = fanCtrl;
  else if (fanCtrl === 'true' || fanCtrl === 'false') m.fanCtrl = fanCtrl === 'true';
  const pwm = strOf(body['bitmain-fan-pwm']) ?? strOf(body['bitmain-fan-pwn']);
  if (pwm !== undefined && Number.isFinite(Number(pwm))) m.fanPwm = Math.max(0, Math.min(100, Math.round(Number(pwm))));
  const freq = strOf(body['freq-level']) ?? strOf(body['bitmain-freq-level']);
  if (freq !== undefined && Number.isFinite(Number(freq))) m.freqLevel = Math.max(50, Math.min(120, Math.round(Number(freq))));
  return null;
}

function systemInfo(m: SimMiner): JsonObject {
  const info: JsonObject = {
    minertype: m.model.reportedName, nettype: m.network.dhcp ? 'DHCP' : 'Static', netdevice: 'eth0', macaddr: m.mac,
    hostname: m.network.hostname, ipaddress: m.ip, netmask: m.network.netmask, gateway: m.network.gateway,
    dnsservers: m.network.dns, system_mode: 'GNU/Linux',
    system_kernel_version: `Linux 4.9.113 #1 SMP PREEMPT ${m.firmware.compileTime}`,
    system_filesystem_version: m.firmware.version, firmware_type: 'Release',
  };
  if (hasNewApi(m)) info.serinum = m.sn;
  else Object.assign(info, { curtime: new Date().toISOString().slice(11, 19), uptime: String(m.elapsed), ant_hwv: '1.0.0.0', bmminer_version: '1.0.0' });
  return info;
}

function networkInfo(m: SimMiner): JsonObject {
  return {
    nettype: m.network.dhcp ? 'DHCP' : 'Static', netdevice: 'eth0', macaddr: m.mac, ipaddress: m.ip, netmask: m.network.netmask,
    conf_nettype: m.network.dhcp ? 'DHCP' : 'Static', conf_hostname: m.network.hostname,
    conf_ipaddress: m.network.dhcp ? '' : m.network.ip, conf_netmask: m.network.dhcp ? '' : m.network.netmask,
    conf_gateway: m.network.dhcp ? '' : m.network.gateway, conf_dnsservers: m.network.dhcp ? '' : m.network.dns,
  };
}

function kernelLog(m: SimMiner): string {
  const lines = [
    'Booting Linux on physical CPU 0x0',
    `Linux version 4.9.113 (${m.firmware.compileTime})`,
    ...m.boards.map((b) => (b.present ? `Chain ${b.index} ASIC ${b.chips} chips, freq ${b.freqMhz}` : `Data load fail for chain ${b.index}`)),
    ...m.logLines,
  ];
  return `${lines.join('\n')}\n`;
}

/** Lighttpd CGI of stock firmware. Every path, `/` included, needs digest auth. */
export function antminerStockWeb(m: SimMiner, req: WebRequest, env: SimEnv): WebReply {
  if (!verifyDigest({ header: req.headers.authorization, method: req.method, user: m.web.username, password: m.web.password, secret: env.secret, now: env.now(), ip: m.ip })) {
    return unauthorized(env, m);
  }
  const when = whenSec(env.now());
  const name = req.path === '/' || req.path === '/index.html' ? '/' : req.path.replace(/^\/cgi-bin\//, '').replace(/\.cgi$/, '');
  const modern = hasNewApi(m);
  switch (name) {
    case '/':
      return textReply(`<!DOCTYPE html><html><head><title>${m.model.reportedName}</title></head><body><div id="app">Antminer ${m.model.model}</div></body></html>`, 200, 'text/html', { Server: SERVER_HEADER });
    case 'get_system_info': return ok(systemInfo(m));
    case 'miner_type': return modern ? ok({ miner_type: m.model.reportedName, subtype: `AMLCtrl_BHB${42600 + m.model.hashboards}` }) : notFound();
    case 'get_network_info': return ok(networkInfo(m));
    case 'get_miner_conf': return ok(stockMinerConf(m));
    case 'set_miner_conf': {
      const body = parseJsonBody(req.body);
      if (!body) return ok({ stats: 'error', code: 'M001', msg: 'Invalid JSON' });
      const err = applyMinerConf(m, body);
      if (err) return ok({ stats: 'error', code: 'M001', msg: err });
      // bmminer restarts to apply the configuration
      return { ...ok({ stats: 'success', code: 'M000', msg: 'OK!' }), after: () => m.restartProcess() };
    }
    case 'summary': return modern ? ok(stockSummaryNew(m, when)) : notFound();
    case 'stats': return modern ? ok(stockStatsNew(m, when)) : notFound();
    case 'pools': return modern ? ok(stockPoolsNew(m, when)) : notFound();
    case 'blink': {
      const body = parseJsonBody(req.body) ?? {};
      const v = body.blink;
      const on = v === true || v === 'true' || body.action === 'startBlink';
      m.blink = on;
      return ok({ code: on ? 'B000' : 'B100' });
    }
    case 'get_blink_status': return ok({ blink: m.blink });
    case 'reboot':
      return { ...ok({ stats: 'success', code: 'R000', msg: 'OK!' }), after: () => m.reboot() };
    case 'reset_conf':
      return { ...ok({ stats: 'success', code: 'M000', msg: 'OK!' }), after: () => m.factoryReset() };
    case 'passwd': {
      const body = parseJsonBody(req.body) ?? {};
      const cur = strOf(body.curPwd);
      const next = strOf(body.newPwd);
      const confirm = strOf(body.confirmPwd);
      if (cur !== m.web.password) return ok({ stats: 'error', code: 'P001', msg: 'Current password is wrong!' });
      if (!next || next !== confirm) return ok({ stats: 'error', code: 'P002', msg: 'New passwords do not match!' });
      if (next.length > 64) return ok({ stats: 'error', code: 'P003', msg: 'Password too long!' });
      return { ...ok({ stats: 'success', code: 'P000', msg: 'OK!' }), after: () => m.setPassword(next) };
    }
    case 'upgrade': {
      const file = req.upload?.files.find((f) => f.field === 'file');
      if (!file || file.size === 0) return ok({ stats: 'error', code: 'U001', msg: '6' });
      const fw = firmwareFromUpload(m, file.filename, env.now());
      if (!fw) return ok({ stats: 'error', code: 'U002', msg: 'Firmware model mismatch' });
      return { ...ok({ stats: 'success', code: 'U000', msg: 'Upgrade success, rebooting' }), after: () => m.upgradeFirmware(fw) };
    }
    case 'upgrade_clear': return ok({ stats: 'error', code: 'U006', msg: 'Fail!' });
    case 'set_network_conf': {
      const body = parseJsonBody(req.body) ?? {};
      const pro = strOf(body.ipPro) ?? '1';
      const host = strOf(body.ipHost) ?? m.network.hostname;
      if (!/^[A-Za-z0-9-]{1,63}$/.test(host)) return ok({ stats: 'error', code: 'N001', msg: 'Hostname invalid!' });
      if (pro === '2') {
        const ip = strOf(body.ipAddress) ?? '';
        if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return ok({ stats: 'error', code: 'N002', msg: 'IP address invalid!' });
        m.network = { dhcp: false, ip, netmask: strOf(body.ipSub) ?? m.network.netmask, gateway: strOf(body.ipGateway) ?? m.network.gateway, dns: strOf(body.ipDns) ?? m.network.dns, hostname: host };
      } else {
        m.network = { ...m.network, dhcp: true, ip: m.ip, hostname: host };
      }
      return ok({ stats: 'success', code: 'N000', msg: 'OK!' });
    }
    case 'log': return modern ? notFound() : textReply(kernelLog(m), 200, 'text/plain', { Server: SERVER_HEADER });
    case 'get_kernel_log': return modern ? textReply(kernelLog(m), 200, 'text/plain', { Server: SERVER_HEADER }) : notFound();
    default: return notFound();
  }
}
