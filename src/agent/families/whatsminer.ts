import type { MinerCredential } from '@shared/schemas/agent-uplink';
import type { MinerBoard, MinerErrorCode, MinerPool, WorkMode } from '@shared/schemas/miner-snapshot';
import { lookupModel } from '../catalogue';
import { OpError, joinOptions, learnJoin, unsupportedOp, detailDue as isDetailDue, detailStamp, type DriverEnv, type FamilyDriver, type MinerHandle, type MinerReading } from '../miner-types';
import { arr, bool, cgPools, int, networkMode, nonNeg, num, obj, parseCompileTime, poolStatus, round2, str, temps, upperMac, workerWithSuffix, type Obj } from '../normalise-util';
import { RpcError, rpcMulti } from '../protocols/cgminer-rpc';
import { WHATSMINER_DEFAULT_V2_PASSWORD, WHATSMINER_DEFAULT_V3_ACCOUNT, WhatsminerError, WhatsminerV2, WhatsminerV3, whatsminerV2UploadFirmware } from '../protocols/whatsminer';
import { whatsminerErrorMessage } from './whatsminer-errors';

/**
 * MicroBT Whatsminer (miner-protocols.md §3). v1/v2 firmware: 4028 reads (`summary+pools+edevs` joined,
 * `status`, `get_error_code`; `get_miner_info` every detailEveryCycles) and token/AES writes.
 * v3 firmware (≥ 2024-11-01): `get.miner.status` summary/edevs/pools + `get.device.info` on 4433, set.* writes.
 * Units: v2 MH/s (`MHS *`) with `Factory GHS` in GH/s; v3 TH/s.
 */

function v2(h: MinerHandle, env: DriverEnv): WhatsminerV2 {
  if (!h.wm2 || h.wm2.port !== env.ports.rpc) {
    h.wm2 = new WhatsminerV2(h.id.ip, env.ports.rpc, v2Passwords(env)[0], { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs });
  }
  return h.wm2;
}

function v3(h: MinerHandle, env: DriverEnv): WhatsminerV3 {
  if (!h.wm3 || h.wm3.port !== env.ports.whatsminerV3) {
    h.wm3 = new WhatsminerV3(h.id.ip, env.ports.whatsminerV3, v3Accounts(env)[0], { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs });
  }
  return h.wm3;
}

function v2Passwords(env: DriverEnv): string[] {
  const list = env.credentials.whatsminer.map((c) => c.password).filter((p) => p !== '');
  return list.length > 0 ? list : [WHATSMINER_DEFAULT_V2_PASSWORD];
}

function v3Accounts(env: DriverEnv): MinerCredential[] {
  const list = env.credentials.whatsminer.map((c) => ({ user: c.user || 'super', password: c.password }));
  return list.length > 0 ? list : [WHATSMINER_DEFAULT_V3_ACCOUNT];
}

/** 17-char label SN followed by zero padding → the label SN. */
function normaliseSn(sn: string): string {
  const s = sn.trim();
  return s.length > 17 && /^0+$/.test(s.slice(17)) ? s.slice(0, 17) : s;
}

function modeFrom(powerMode: string, off: boolean): WorkMode {
  if (off) return 'sleep';
  const p = powerMode.toLowerCase();
  if (p.startsWith('low')) return 'low-power';
  if (p.startsWith('high')) return 'high';
  return 'normal';
}

/** Error list from v2 get_error_code `[{"110":"time"}]`, a dict (2.0.4 quirk), v1 summary keys, or v3 entries. */
export function parseWhatsminerErrors(v: unknown): MinerErrorCode[] {
  const out: MinerErrorCode[] = [];
  const push = (code: number, reason?: string) => {
    if (!Number.isFinite(code) || out.some((e) => e.code === code)) return;
    out.push({ code, message: reason || whatsminerErrorMessage(code) });
  };
  const handleEntry = (e: unknown) => {
    if (typeof e === 'number' || (typeof e === 'string' && /^\d+$/.test(e))) return push(Number(e));
    // API 2.0.4 writes the {"<code>":"<time>"} pairs as list items (`["329","2022-01-17 11:28:11"]` once parsed):
    // the time string belongs to the code before it and is no error of its own
    if (typeof e === 'string' && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?$/.test(e.trim())) return;
    if (typeof e === 'string') return out.push({ code: 0, message: e });
    const o = obj(e);
    const reason = str(o['reason']);
    for (const k of Object.keys(o)) if (/^\d+$/.test(k)) push(Number(k), reason);
  };
  if (Array.isArray(v)) v.forEach(handleEntry);
  else if (v && typeof v === 'object') handleEntry(v);
  else if (typeof v === 'string' && v) out.push({ code: 0, message: v });
  return out;
}

async function tryWrite<T>(h: MinerHandle, env: DriverEnv, fn: (c: WhatsminerV2 | WhatsminerV3) => Promise<T>): Promise<T> {
  const useV3 = h.id.whatsminerApi === 'v3';
  const client = useV3 ? v3(h, env) : v2(h, env);
  const creds = useV3 ? v3Accounts(env) : v2Passwords(env).map((p) => ({ user: 'admin', password: p }));
  let last: unknown = null;
  for (const c of creds) {
    if (client instanceof WhatsminerV3) client.setAccount(c);
    else client.setPassword(c.password);
    try {
      return await fn(client);
    } catch (e) {
      last = e;
      if (e instanceof WhatsminerError && e.kind === 'auth-failed') continue;
      throw mapErr(e);
    }
  }
  throw mapErr(last);
}

function mapErr(e: unknown): unknown {
  if (e instanceof WhatsminerError) {
    if (e.kind === 'auth-failed') return new OpError('auth-failed', `auth-failed: ${e.message}`);
    if (e.kind === 'write-disabled') return new OpError('write-disabled', e.message);
    return new OpError('miner-error', e.message);
  }
  return e;
}

/** v2: the joined read of every cycle on 4028. */
export const WHATSMINER_V2_CYCLE_READS: readonly string[] = Object.freeze(['summary', 'pools', 'edevs']);
/** v3: the three status blocks of every cycle, in this order on one 4433 connection. */
export const WHATSMINER_V3_CYCLE_READS: ReadonlyArray<readonly [string, string]> = [
  ['get.miner.status', 'summary'],
  ['get.miner.status', 'edevs'],
  ['get.miner.status', 'pools'],
];

async function readV2(h: MinerHandle, env: DriverEnv): Promise<MinerReading> {
  const c = v2(h, env);
  const id = h.id;
  const detailDue = isDetailDue(h, env.detailEveryCycles);
  const o = { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs, ...joinOptions(h), completeWhenJson: true };
  const multi = await rpcMulti(id.ip, env.ports.rpc, WHATSMINER_V2_CYCLE_READS, o);
  learnJoin(h, multi);
  const sumR = multi.results['summary'];
  if (!sumR?.ok) {
    const err = sumR && !sumR.ok ? sumR.error : new RpcError('empty', 'no summary');
    throw err;
  }
  // cgminer envelope (SUMMARY array), or the btminer-native flat one some builds answer with (summary in `Msg`)
  const s = whatsminerV2Summary(sumR.reply);
  const model = lookupModel(id.reportedModel, 'whatsminer');
  const devsR = multi.results['edevs'];
  const devs = devsR?.ok ? arr(devsR.reply['DEVS']).map(obj) : [];
  const boards = boardsFromV2(devs, model?.hashboards, model?.chipsPerBoard);
  const fans = [nonNeg(s['Fan Speed In']), nonNeg(s['Fan Speed Out'])].slice(0, model?.fans ?? 2);
  const rt = nonNeg(s['MHS 5s'] ?? s['MHS 1m']) / 1000;
  const ideal = nonNeg(s['Factory GHS']);
  // status (mineroff) and the error list are separate connections (not joinable): read them on detail
  // cycles and whenever the summary looks abnormal (zero/low hashrate, stopped fan, missing board, heat)
  const abnormal =
    rt <= 0 ||
    (ideal > 0 && rt < 0.9 * ideal) ||
    fans.some((f) => f <= 0) ||
    boards.some((b) => b.chips < b.expectedChips) ||
    boards.some((b) => Math.max(0, ...b.tempChip) >= 85) ||
    int(s['Error Code Count']) > 0 ||
    (wmPrev.get(h)?.errors ?? 0) > 0;
  const v1 = id.firmwareVersion !== '' && id.firmwareVersion < '20220729';
  const needStatus = detailDue || abnormal || wmPrev.get(h)?.off === true;
  const needErrors = (detailDue || abnormal) && !v1;
  // the usual cycle reads none of them: no Promise.all over three resolved promises
  const [status, errs, info] =
    needStatus || needErrors || detailDue
      ? await Promise.all([
          needStatus ? c.native('status').catch(() => null) : null,
          needErrors ? c.native('get_error_code').catch(() => null) : null,
          detailDue ? c.native('get_miner_info', { info: 'ip,proto,netmask,gateway,dns,hostname,mac,ledstat,minersn,powersn' }).catch(() => null) : null,
        ])
      : [null, null, null];
  if (info) {
    h.detail = {
      mac: upperMac(info['mac']),
      sn: normaliseSn(str(info['minersn'])),
      blink: str(info['ledstat']) !== '' && str(info['ledstat']) !== 'auto',
      net: networkMode(info['proto']) ?? h.detail?.net,
      cycle: detailStamp(h, env.detailEveryCycles),
    };
  } else if (detailDue && h.detail) h.detail.cycle = h.cycle;
  const fw = str(s['Firmware Version']).replace(/'/g, '') || id.firmwareVersion;
  if (fw && fw !== id.firmwareVersion) {
    id.firmwareVersion = fw;
    id.compileTime = parseCompileTime(fw);
  }
  const poolsR = multi.results['pools'];
  const errorCodes = errs ? parseWhatsminerErrors(errs['error_code']) : (wmPrev.get(h)?.errorCodes ?? []);
  // v1 keeps errors in summary (`Error Code Count`, `Error Code N`)
  for (let i = 0; i < int(s['Error Code Count']); i++) {
    const code = num(s[`Error Code ${i}`]);
    if (!errorCodes.some((e) => e.code === code)) errorCodes.push({ code, message: whatsminerErrorMessage(code) });
  }
  const off = status ? bool(status['mineroff'] ?? status['btmineroff']) : rt <= 0 && (wmPrev.get(h)?.off ?? false);
  wmPrev.set(h, { off, errors: errorCodes.length, errorCodes });
  const r: MinerReading = {
    ip: id.ip,
    mac: h.detail?.mac || upperMac(s['MAC']),
    sn: h.detail?.sn ?? '',
    make: 'Whatsminer',
    model: id.model,
    family: 'whatsminer',
    firmwareVersion: id.firmwareVersion,
    compileTime: id.compileTime,
    rt5s: round2(rt),
    rate30m: round2(nonNeg(s['MHS 15m'] ?? s['MHS 5m'] ?? s['MHS av']) / 1000),
    avg: round2(nonNeg(s['MHS av']) / 1000),
    ideal: round2(ideal),
    boards,
    fans,
    pools: poolsR?.ok ? cgPools(poolsR.reply['POOLS']) : [],
    workMode: modeFrom(str(status?.['power_mode'] ?? s['Power Mode']), off),
    elapsedSec: nonNeg(s['Elapsed']),
    errorCodes,
  };
  const p = nonNeg(s['Power'] ?? s['Power_RT']);
  if (p > 0) r.powerW = p;
  if (h.detail?.blink !== undefined) r.blink = h.detail.blink;
  return r;
}

/** SUMMARY[0] of a v2 `summary` reply; builds answering with the btminer flat envelope carry it as the `Msg` object. */
export function whatsminerV2Summary(reply: Obj): Obj {
  const rows = arr(reply['SUMMARY']);
  if (rows.length > 0) return obj(rows[0]);
  return obj(reply['Msg']);
}

/** Last slow-path results per miner (work-mode "off" and error list), reused between detail reads. */
const wmPrev = new WeakMap<MinerHandle, { off: boolean; errors: number; errorCodes: MinerErrorCode[]; powerMode?: string }>();

function boardsFromV2(devs: Obj[], nBoards: number | undefined, chipsPerBoard: number | undefined): MinerBoard[] {
  const bySlot = new Map<number, Obj>();
  devs.forEach((d, i) => bySlot.set(int(d['Slot'] ?? d['ASC'] ?? d['ID'] ?? i), d));
  const n = Math.max(nBoards ?? 0, ...[...bySlot.keys()].map((k) => k + 1), 0);
  const out: MinerBoard[] = [];
  for (let i = 0; i < n; i++) {
    const d = bySlot.get(i);
    const chips = d ? int(d['Effective Chips']) : 0;
    const b: MinerBoard = {
      index: i,
      chips,
      expectedChips: chipsPerBoard ?? chips,
      tempPcb: d ? temps(d['Temperature']) : [],
      tempChip: d ? [...temps(d['Chip Temp Min']), ...temps(d['Chip Temp Max'])] : [],
      tempPic: [],
      rateGhs: d ? round2(nonNeg(d['MHS 1m'] ?? d['MHS av']) / 1000) : 0,
      hwErrors: 0,
    };
    const f = d ? num(d['Chip Frequency'] ?? d['Frequency']) : 0;
    if (f > 0) b.freqMhz = f;
    if (d && str(d['PCB SN'])) b.sn = str(d['PCB SN']);
    if (d && str(d['Status']) && str(d['Status']).toLowerCase() !== 'alive') b.failed = true;
    out.push(b);
  }
  return out;
}

async function readV3(h: MinerHandle, env: DriverEnv): Promise<MinerReading> {
  const c = v3(h, env);
  const id = h.id;
  const detailDue = isDetailDue(h, env.detailEveryCycles);
  const model = lookupModel(id.reportedModel, 'whatsminer');
  // one connection for the three status blocks (v3 connections are reusable)
  const [sumM, edevM, poolM] = await c.getMany(WHATSMINER_V3_CYCLE_READS.map(([cmd, param]): [string, unknown] => [cmd, param]));
  const s = obj(obj(sumM)['summary']);
  const rt = nonNeg(s['hash-realtime']) * 1000;
  const ideal = nonNeg(s['factory-hash']) * 1000;
  const prev = wmPrev.get(h);
  const offNominal = ideal > 0 && Math.abs(rt / ideal - 1) > 0.08;
  const abnormal = rt <= 0 || offNominal || nonNeg(s['fan-speed-in']) <= 0 || nonNeg(s['fan-speed-out']) <= 0 || nonNeg(s['chip-temp-max']) >= 85 || (prev?.errors ?? 0) > 0;
  const needInfo = detailDue || abnormal || prev?.off === true;
  const needSetting = detailDue || offNominal || (prev?.powerMode !== undefined && prev.powerMode !== 'normal');
  const extra: Array<[string, unknown]> = [];
  if (needInfo) extra.push(['get.device.info', null]);
  if (needSetting) extra.push(['get.miner.setting', null]);
  const extraRes = extra.length ? await c.getMany(extra).catch(() => extra.map(() => null)) : [];
  const infoM = needInfo ? (extraRes[0] ?? null) : null;
  const setting = needSetting ? (extraRes[needInfo ? 1 : 0] ?? null) : null;
  const info = obj(infoM);
  const miner = obj(info['miner']);
  const system = obj(info['system']);
  if (infoM) {
    h.detail = {
      mac: upperMac(obj(info['network'])['mac']),
      sn: normaliseSn(str(miner['miner-sn'])),
      blink: str(system['ledstatus']) !== '' && str(system['ledstatus']) !== 'auto',
      net: networkMode(obj(info['network'])['proto']) ?? h.detail?.net,
      cycle: detailDue ? detailStamp(h, env.detailEveryCycles) : (h.detail?.cycle ?? h.cycle),
    };
    const fw = str(system['fwversion']);
    if (fw && fw !== id.firmwareVersion) {
      id.firmwareVersion = fw;
      id.compileTime = parseCompileTime(fw);
    }
  } else if (detailDue && h.detail) h.detail.cycle = h.cycle;
  const edevs = arr(obj(edevM)['edevs']).map(obj);
  const byId = new Map(edevs.map((e, i) => [int(e['id'] ?? i), e]));
  const n = Math.max(model?.hashboards ?? 0, ...[...byId.keys()].map((k) => k + 1), 0);
  const boards: MinerBoard[] = [];
  const boardTemps = arr(s['board-temperature']).map(num);
  for (let i = 0; i < n; i++) {
    const e = byId.get(i);
    const chips = e ? int(e['effective-chips']) : 0;
    const b: MinerBoard = {
      index: i,
      chips,
      expectedChips: model?.chipsPerBoard ?? chips,
      tempPcb: e ? temps(boardTemps[i]) : [],
      tempChip: e ? [...temps(e['chip-temp-min']), ...temps(e['chip-temp-max'])] : [],
      tempPic: [],
      rateGhs: e ? round2(nonNeg(e['hash-average'] ?? e['hash-realtime']) * 1000) : 0,
      hwErrors: 0,
    };
    if (e && num(e['freq']) > 0) b.freqMhz = num(e['freq']);
    const pcbSn = str(miner[`pcbsn${i}`]);
    if (pcbSn) b.sn = pcbSn;
    if (e && str(e['status']) && str(e['status']).toLowerCase() !== 'alive') b.failed = true;
    boards.push(b);
  }
  const pools: MinerPool[] = arr(obj(poolM)['pools'])
    .map(obj)
    .slice(0, 3)
    .map((p) => ({ url: str(p['url']), user: str(p['account']), status: str(p['url']) === '' ? 'unknown' : poolStatus(p['status']), active: bool(p['stratum-active']), accepted: 0, rejected: 0 }));
  const powerMode = setting ? str(obj(setting)['power-mode']) : (prev?.powerMode ?? 'normal');
  const off = infoM ? str(miner['working']) === 'false' && rt <= 0 : rt <= 0 && (prev?.off ?? false);
  const errorCodes = infoM ? parseWhatsminerErrors(info['error-code']) : (prev?.errorCodes ?? []);
  wmPrev.set(h, { off, errors: errorCodes.length, errorCodes, powerMode });
  const r: MinerReading = {
    ip: id.ip,
    mac: h.detail?.mac ?? '',
    sn: h.detail?.sn ?? '',
    make: 'Whatsminer',
    model: id.model,
    family: 'whatsminer',
    firmwareVersion: id.firmwareVersion,
    compileTime: id.compileTime,
    rt5s: round2(rt),
    rate30m: round2(nonNeg(s['hash-15min'] ?? s['hash-average']) * 1000),
    avg: round2(nonNeg(s['hash-average']) * 1000),
    ideal: round2(ideal),
    boards,
    fans: [nonNeg(s['fan-speed-in']), nonNeg(s['fan-speed-out'])].slice(0, model?.fans ?? 2),
    pools,
    workMode: modeFrom(powerMode, off),
    elapsedSec: nonNeg(s['elapsed']),
    errorCodes,
  };
  const p = nonNeg(s['power-realtime']);
  if (p > 0) r.powerW = p;
  if (h.detail?.blink !== undefined) r.blink = h.detail.blink;
  return r;
}

export const whatsminerDriver: FamilyDriver = {
  async read(h, env) {
    if (h.id.whatsminerApi === 'v3') {
      try {
        return await readV3(h, env);
      } catch (e) {
        // v3 port closed or filtered: v3 firmware still answers the 4028 reads
        if (e instanceof RpcError && (e.kind === 'refused' || e.kind === 'connect-timeout')) return readV2(h, env);
        throw e;
      }
    }
    return readV2(h, env);
  },
  async reboot(h, env) {
    await tryWrite(h, env, (c) => (c instanceof WhatsminerV3 ? c.set('set.system.reboot', null, { expectDrop: true }) : c.write('reboot', {}, { expectDrop: true })));
  },
  async blink(h, env, on) {
    await tryWrite(h, env, (c) =>
      c instanceof WhatsminerV3
        ? c.set('set.system.led', on ? [{ color: 'red', period: 200, duration: 100, start: 0 }] : 'auto')
        : c.write('set_led', on ? { color: 'red', period: 200, duration: 100, start: 0 } : { param: 'auto' }),
    );
  },
  async setPools(h, env, pools, suffix, sn) {
    const list = [0, 1, 2].map((i) => {
      const p = pools[i];
      return p ? { url: p.url, user: workerWithSuffix(p.user, suffix, h.id.ip, sn), password: p.password } : { url: '', user: '', password: '' };
    });
    await tryWrite(h, env, (c) => {
      if (c instanceof WhatsminerV3) return c.set('set.miner.pools', list.filter((p) => p.url).map((p) => ({ pool: p.url, worker: p.user, passwd: p.password })), { encrypt: true });
      const params: Record<string, string> = {};
      list.forEach((p, i) => {
        params[`pool${i + 1}`] = p.url;
        params[`worker${i + 1}`] = p.user;
        params[`passwd${i + 1}`] = p.password;
      });
      return c.write('update_pools', params);
    });
  },
  async workMode(h, env, mode) {
    await tryWrite(h, env, async (c) => {
      if (c instanceof WhatsminerV3) {
        if (mode === 'sleep') return c.set('set.miner.service', 'stop');
        await c.set('set.miner.service', 'start');
        return c.set('set.miner.power_mode', mode === 'low-power' ? 'low' : mode === 'high' ? 'high' : 'normal');
      }
      if (mode === 'sleep') return c.write('power_off', { respbefore: 'true' });
      await c.write('power_on');
      return c.write(mode === 'low-power' ? 'set_low_power' : mode === 'high' ? 'set_high_power' : 'set_normal_power');
    });
  },
  async factoryReset(h, env) {
    await tryWrite(h, env, (c) => (c instanceof WhatsminerV3 ? c.set('set.system.factory_reset', null, { expectDrop: true }) : c.write('factory_reset', {}, { expectDrop: true })));
  },
  async changePassword(h, env, newPassword) {
    if (h.id.whatsminerApi !== 'v3' && !/^[A-Za-z0-9_]{1,8}$/.test(newPassword)) throw new OpError('invalid-params', 'Whatsminer admin password: 1–8 characters [A-Za-z0-9_]');
    await tryWrite(h, env, async (c) => {
      if (c instanceof WhatsminerV3) {
        const old = v3Accounts(env)[0]?.password ?? 'super';
        await c.set('set.user.change_passwd', { account: 'super', old, new: newPassword }, { encrypt: true });
        c.setAccount({ user: 'super', password: newPassword });
        return;
      }
      await c.write('update_pwd', { old: c.currentPassword(), new: newPassword });
      c.setPassword(newPassword);
    });
  },
  /** API v2: `upgrade_firmware` → `ready`, then length-prefixed image on the same connection (§3.3). */
  async firmwareUpgrade(h, env, file) {
    if (h.id.whatsminerApi === 'v3') {
      throw new OpError('unsupported-op', 'API v3 names set.system.update_firmware but documents no image transfer; upgrade v3 units with WhatsMinerTool');
    }
    await tryWrite(h, env, (c) => whatsminerV2UploadFirmware(c as WhatsminerV2, file, { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: Math.max(env.rpcTimeoutMs, 10000) }));
  },
  async dhcp(h, env) {
    await tryWrite(h, env, (c) => (c instanceof WhatsminerV3 ? c.set('set.system.net_config', 'dhcp') : c.write('net_config', { param: 'dhcp' })));
  },
  adjustHashrate: unsupportedOp,
  setFrequency: unsupportedOp,
  powerPercent: unsupportedOp,
  /** btminer exposes only fan on/off switches (set_fan_zero_speed, set_poweroff_cool), no fixed fan speed. */
  async setFans() {
    throw new OpError('unsupported-op', 'the Whatsminer API has no fan-speed setting (only zero-speed and power-off-cooling switches)');
  },
};

