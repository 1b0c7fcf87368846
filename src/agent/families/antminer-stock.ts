import type { MinerBoard, MinerErrorCode, WorkMode } from '@shared/schemas/miner-snapshot';
import { lookupModel, displayModel } from '../catalogue';
import { AGENT_ERROR, OpError, joinOptions, learnJoin, detailDue as isDetailDue, detailStamp, type DriverEnv, type FamilyDriver, type MinerHandle, type MinerReading } from '../miner-types';
import { arr, bool, cgPools, int, networkMode, nonNeg, num, obj, parseCompileTime, poolStatus, round2, str, temps, toGhsFactor, upperMac, workerWithSuffix, type Obj } from '../normalise-util';
import { AntminerWeb } from '../protocols/antminer-web';
import { RpcError, rpcMulti, type RpcObject } from '../protocols/cgminer-rpc';
import { HttpError } from '../protocols/http-client';

/**
 * Stock Antminer (bmminer/cgminer RPC + lighttpd CGI; miner-protocols.md §1, §2).
 * Per cycle: one RPC connection `summary+pools+stats` (new_api layout on builds ≥ 2023-07, which also
 * carries the work mode) and, on older builds, `get_miner_conf.cgi` for the work mode. Every
 * `detailEveryCycles`: `get_system_info.cgi` (MAC, serial), `get_blink_status.cgi`, `summary.cgi` health.
 */

/** Request flag of the 2023+ layout (one shared object: the request text is cached per extra object). */
export const NEW_API = Object.freeze({ new_api: true });
/** The one RPC read of every cycle (joined into `summary+pools+stats`). */
export const ANTMINER_CYCLE_READS: readonly string[] = Object.freeze(['summary', 'pools', 'stats']);
const MODE_BY_CODE: Record<string, WorkMode> = { '0': 'normal', '1': 'sleep', '2': 'high', '3': 'low-power' };
const CODE_BY_MODE: Record<WorkMode, number> = { normal: 0, sleep: 1, high: 2, 'low-power': 3 };

export function webClient(h: MinerHandle, env: DriverEnv): AntminerWeb {
  if (!h.web || h.web.port !== env.ports.web) {
    h.web = new AntminerWeb(h.id.ip, env.ports.web, { credentials: env.credentials.antminer, timeoutMs: env.webTimeoutMs });
    webCreds.set(h.web, env.credentials.antminer);
  } else if (webCreds.get(h.web) !== env.credentials.antminer) {
    h.web.setCredentials(env.credentials.antminer);
    webCreds.set(h.web, env.credentials.antminer);
  }
  return h.web;
}
const webCreds = new WeakMap<AntminerWeb, unknown>();
/** Work mode last read from get_miner_conf.cgi (old builds) and whether the hashrate was nominal then. */
const lastMode = new WeakMap<MinerHandle, { mode: WorkMode; nearNominal: boolean }>();

function statusIsObject(reply: RpcObject): boolean {
  const st = reply['STATUS'];
  return !!st && typeof st === 'object' && !Array.isArray(st);
}

interface StatsParse {
  type: string;
  compileTime: string;
  rt5s: number;
  rate30m: number;
  avg: number;
  ideal: number;
  elapsed: number;
  boards: MinerBoard[];
  fans: number[];
  powerW?: number;
  mode?: WorkMode;
}

/**
 * Per-chip status string without blanks when it shows a bad chip, else '' (the all-'o' string is not copied).
 * `-` marks a position of the last domain group that holds no chip (S23 Hyd.: 84 chips in groups of 11 end in
 * `ooooooo----`): padding, not a bad chip, so it is dropped with the blanks.
 */
function chipStatusOf(v: unknown): string {
  const raw = str(v);
  return /[^o\s-]/.test(raw) ? raw.replace(/[\s-]+/g, '') : '';
}

/** Hydro units (`Antminer S21 XP Hyd.`, `… Hydro`) have no fans of their own but still report fan_num 4 with zeros. */
function isHydro(type: string): boolean {
  return /\bhyd(?:\.|ro\b|$)/i.test(type.trim());
}

/** Parses `stats` in either layout (old flat STATS[1] or new chain[]). */
export function parseAntminerStats(reply: RpcObject, expected: { boards?: number; chipsPerBoard?: number; fans?: number }): StatsParse {
  if (statusIsObject(reply) || obj(reply['INFO'])['type'] !== undefined) {
    const info = obj(reply['INFO']);
    const s = obj(arr(reply['STATS'])[0]);
    const f = toGhsFactor(str(s['rate_unit']) || 'GH');
    const chains = arr(s['chain']).map(obj);
    const nBoards = Math.max(expected.boards ?? 0, chains.length);
    // chain by its `index` (the last one wins, as a Map would); indices past nBoards are never looked up
    const byIndex = new Array<Obj | undefined>(nBoards);
    for (const c of chains) {
      const k = int(c['index']);
      if (k < nBoards) byIndex[k] = c;
    }
    const boards: MinerBoard[] = [];
    for (let i = 0; i < nBoards; i++) {
      const c = byIndex[i];
      const chips = c ? int(c['asic_num']) : 0;
      const acs = c ? chipStatusOf(c['asic']) : '';
      const b: MinerBoard = {
        index: i,
        chips,
        expectedChips: expected.chipsPerBoard ?? chips,
        tempPcb: c ? temps(c['temp_pcb']) : [],
        tempChip: c ? temps(c['temp_chip']) : [],
        tempPic: c ? temps(c['temp_pic']) : [],
        rateGhs: c ? round2(nonNeg(c['rate_real']) * f) : 0,
        hwErrors: c ? int(c['hw']) : 0,
      };
      if (c && num(c['freq_avg']) > 0) b.freqMhz = num(c['freq_avg']);
      if (acs) b.chipStatus = acs;
      if (c && str(c['sn'])) b.sn = str(c['sn']);
      boards.push(b);
    }
    const fans = arr(s['fan']).map(nonNeg);
    const modeRaw = s['miner-mode'] ?? s['bitmain-work-mode'];
    const type = str(info['type']);
    const out: StatsParse = {
      type,
      compileTime: str(info['CompileTime']),
      rt5s: nonNeg(s['rate_5s']) * f,
      rate30m: nonNeg(s['rate_30m']) * f,
      avg: nonNeg(s['rate_avg']) * f,
      ideal: nonNeg(s['rate_ideal']) * f,
      elapsed: nonNeg(s['elapsed']),
      boards,
      fans: fitFans(fans, expected.fans ?? (isHydro(type) ? 0 : undefined)),
    };
    // S21-era builds: `chain_power` "3510 W"; S23 Hyd. (2026 build): a plain `watt` number
    if (s['chain_power'] !== undefined) out.powerW = nonNeg(s['chain_power']);
    else if (s['watt'] !== undefined) out.powerW = nonNeg(s['watt']);
    if (modeRaw !== undefined) out.mode = MODE_BY_CODE[str(modeRaw)] ?? 'normal';
    return out;
  }
  const stats = arr(reply['STATS']).map(obj);
  const ident = stats.find((x) => x['Type'] !== undefined || x['CompileTime'] !== undefined) ?? {};
  const flat = stats.find((x) => x['GHS 5s'] !== undefined || x['chain_acn1'] !== undefined || x['Elapsed'] !== undefined) ?? stats[1] ?? {};
  const f = toGhsFactor(str(flat['rate_unit']) || 'GH');
  // chain slots present in the reply (1..16), offset = first populated slot (pyasic)
  const slots: number[] = [];
  for (let n = 1; n <= 16; n++) if (flat[`chain_acn${n}`] !== undefined || flat[`chain_rate${n}`] !== undefined) slots.push(n);
  // stock sends chain_rateN as a string ("" for an empty slot); 16-slot builds send numbers, 0.0 for an empty slot
  const rateSet = (v: unknown) => (typeof v === 'string' ? v !== '' : num(v) > 0);
  const populated = (n: number) => int(flat[`chain_acn${n}`]) > 0 || rateSet(flat[`chain_rate${n}`]) || temps(flat[`temp_pcb${n}`]).length > 0;
  const firstPop = slots.find(populated) ?? slots[0] ?? 1;
  // S9-style layouts start at slot 6; X19 at 1: keep the offset only when it is past the expected board count
  const offset = firstPop > (expected.boards ?? 4) ? firstPop : (slots[0] ?? 1);
  const nBoards = expected.boards ?? Math.max(int(flat['miner_count']), slots.filter(populated).length);
  const boards: MinerBoard[] = [];
  for (let i = 0; i < nBoards; i++) {
    const n = offset + i;
    const chips = int(flat[`chain_acn${n}`]);
    const acs = chipStatusOf(flat[`chain_acs${n}`]);
    let pcb = temps(flat[`temp_pcb${n}`]);
    let chip = temps(flat[`temp_chip${n}`]);
    if (pcb.length === 0) pcb = temps(flat[`temp${n}`]);
    if (chip.length === 0) chip = temps(flat[`temp2_${n}`]);
    const b: MinerBoard = {
      index: i,
      chips,
      expectedChips: expected.chipsPerBoard ?? chips,
      tempPcb: pcb,
      tempChip: chip,
      tempPic: temps(flat[`temp_pic${n}`]),
      rateGhs: round2(nonNeg(flat[`chain_rate${n}`])),
      hwErrors: int(flat[`chain_hw${n}`]),
    };
    const freq = num(flat[`freq${n}`]) || num(flat[`freq_avg${n}`]);
    if (freq > 0) b.freqMhz = freq;
    if (acs) b.chipStatus = acs;
    boards.push(b);
  }
  const fanNum = int(flat['fan_num']);
  const fansAll: number[] = [];
  for (let n = 1; n <= 8; n++) if (flat[`fan${n}`] !== undefined) fansAll.push(nonNeg(flat[`fan${n}`]));
  const type = str(ident['Type']);
  const fans = fitFans(fanNum > 0 ? fansAll.slice(0, fanNum) : fansAll.filter((x) => x > 0), expected.fans ?? (isHydro(type) ? 0 : undefined));
  const out: StatsParse = {
    type,
    compileTime: str(ident['CompileTime']),
    rt5s: nonNeg(flat['GHS 5s']) * f,
    rate30m: nonNeg(flat['rate_30m'] ?? flat['GHS 30m']) * f,
    avg: nonNeg(flat['GHS av']) * f,
    ideal: nonNeg(flat['total_rateideal']) * f,
    elapsed: nonNeg(flat['Elapsed']),
    boards,
    fans,
  };
  if (flat['chain_power'] !== undefined) out.powerW = nonNeg(flat['chain_power']);
  return out;
}

function fitFans(fans: number[], expected: number | undefined): number[] {
  if (expected === undefined) return fans;
  const out = fans.slice(0, expected);
  while (out.length < expected) out.push(0);
  return out;
}

function parseSummary(reply: RpcObject): { rt5s: number; avg: number; rate30m: number; elapsed: number } {
  const s = obj(arr(reply['SUMMARY'])[0]);
  if (s['rate_5s'] !== undefined) {
    const f = toGhsFactor(str(s['rate_unit']) || 'GH');
    return { rt5s: nonNeg(s['rate_5s']) * f, avg: nonNeg(s['rate_avg']) * f, rate30m: nonNeg(s['rate_30m']) * f, elapsed: nonNeg(s['elapsed']) };
  }
  return { rt5s: nonNeg(s['GHS 5s']), avg: nonNeg(s['GHS av']), rate30m: nonNeg(s['GHS 30m']), elapsed: nonNeg(s['Elapsed']) };
}

function parsePools(reply: RpcObject) {
  const rows = arr(reply['POOLS']).map(obj);
  if (rows[0] && rows[0]['url'] !== undefined && rows[0]['URL'] === undefined) {
    // new layout (lowercase keys); no Stratum Active: the first alive pool with shares is active
    const mapped = rows.slice(0, 3).map((p) => ({
      url: str(p['url']),
      user: str(p['user']),
      status: str(p['url']) === '' ? ('unknown' as const) : poolStatus(p['status']),
      active: false,
      accepted: int(p['accepted']),
      rejected: int(p['rejected']),
    }));
    const act = mapped.findIndex((p) => p.status === 'alive' && p.url !== '');
    if (act >= 0 && mapped[act]) mapped[act].active = true;
    return mapped;
  }
  return cgPools(rows);
}

function rpcFailure(results: Record<string, { ok: true; reply: RpcObject } | { ok: false; error: RpcError }>): RpcError | null {
  const vals = Object.values(results);
  if (vals.some((v) => v.ok)) return null;
  const first = vals.find((v) => !v.ok);
  return first && !first.ok ? first.error : new RpcError('empty', 'no reply');
}

async function settle<T>(p: Promise<T> | undefined): Promise<{ ok: true; v: T } | { ok: false; e: unknown } | undefined> {
  if (!p) return undefined;
  try {
    return { ok: true, v: await p };
  } catch (e) {
    return { ok: false, e };
  }
}

export const antminerStockDriver: FamilyDriver = {
  async read(h, env) {
    const id = h.id;
    const model = lookupModel(id.reportedModel, 'antminer-stock');
    const expected = model ? { boards: model.hashboards, chipsPerBoard: model.chipsPerBoard, fans: model.fans } : {};
    const detailDue = isDetailDue(h, env.detailEveryCycles);
    const rpcP = rpcMulti(id.ip, env.ports.rpc, ANTMINER_CYCLE_READS, {
      connectTimeoutMs: env.connectTimeoutMs,
      timeoutMs: env.rpcTimeoutMs,
      ...joinOptions(h),
      extra: id.newApi ? NEW_API : undefined,
    });
    // old builds carry the work mode only in get_miner_conf.cgi: read it when it can have changed
    // (details due, not in normal mode, or the hashrate is off nominal — every mode change moves it)
    const prev = lastMode.get(h);
    const needConf = !(id.newApi || (!detailDue && prev && prev.mode === 'normal' && prev.nearNominal));
    // the web client only when a web read is due (most cycles of a 2023+ build have none)
    const web = needConf || detailDue ? webClient(h, env) : null;
    const confP = needConf ? web?.getMinerConf() : undefined;
    const sysP = detailDue ? web?.getSystemInfo() : undefined;
    const blinkP = detailDue ? web?.getBlinkStatus() : undefined;
    const healthP = detailDue && id.newApi ? web?.summaryCgi() : undefined;
    // A miner that missed its last poll will likely miss this one too: the web probe that tells "up, but its miner
    // process is not" (below) is asked together with the RPC, not after its timeout (a powered-off unit: 10 s, not 18 s).
    const probeP = !web && h.missing ? settle(webClient(h, env).getSystemInfo()) : undefined;
    // the usual cycle has no web read: await the RPC alone (no settle wrappers, no Promise.all)
    const [rpc, conf, sys, blink, health] =
      confP || sysP || blinkP || healthP ? await Promise.all([rpcP, settle(confP), settle(sysP), settle(blinkP), settle(healthP)]) : [await rpcP, undefined, undefined, undefined, undefined];
    learnJoin(h, rpc);
    const errorCodes: MinerErrorCode[] = [];
    const webResults = [conf, sys, blink, health].filter((x) => x !== undefined);
    const authFailed = webResults.some((r) => r && !r.ok && r.e instanceof HttpError && r.e.kind === 'auth-failed');
    if (authFailed) errorCodes.push({ ...AGENT_ERROR.authFailed });
    let webOk = webResults.some((r) => r?.ok) || authFailed;
    const rpcErr = rpcFailure(rpc.results);
    if (rpcErr && !webOk && webResults.length === 0) {
      // RPC down: if the web server answers, the unit is up but its miner process is not (cannot start)
      try {
        const probe = await probeP;
        if (probe && !probe.ok) throw probe.e;
        const sysNow = probe?.ok ? probe.v : await webClient(h, env).getSystemInfo();
        h.detail = { mac: upperMac(sysNow['macaddr']), sn: str(sysNow['serinum'] ?? sysNow['serial_no']), blink: h.detail?.blink, net: networkMode(sysNow['nettype']) ?? h.detail?.net, cycle: h.cycle };
        webOk = true;
      } catch (e) {
        if (e instanceof HttpError && e.kind === 'auth-failed') {
          errorCodes.push({ ...AGENT_ERROR.authFailed });
          webOk = true;
        }
      }
    }
    if (rpcErr && !webOk) throw rpcErr;

    if (sys?.ok) {
      h.detail = {
        mac: upperMac(sys.v['macaddr']),
        sn: str(sys.v['serinum'] ?? sys.v['serial_no']),
        blink: h.detail?.blink,
        net: networkMode(sys.v['nettype']) ?? h.detail?.net,
        cycle: detailStamp(h, env.detailEveryCycles),
      };
    }
    if (blink?.ok && h.detail) h.detail.blink = bool(blink.v['blink']);
    if (h.detail && detailDue && !sys?.ok) h.detail.cycle = h.cycle; // retry on the next detail round, not every cycle
    if (health?.ok) {
      for (const st of arr(obj(arr(health.v['SUMMARY'])[0])['status']).map(obj)) {
        if (str(st['status']) !== 's' && str(st['status']) !== '') errorCodes.push({ code: Math.round(num(st['code'])), message: str(st['msg']) || `${str(st['type'])} ${str(st['status'])}` });
      }
    }

    const statsR = rpc.results['stats'];
    const summaryR = rpc.results['summary'];
    const poolsR = rpc.results['pools'];
    const st = statsR?.ok ? parseAntminerStats(statsR.reply, expected) : null;
    const sm = summaryR?.ok ? parseSummary(summaryR.reply) : null;
    let mode: WorkMode = st?.mode ?? prev?.mode ?? 'normal';
    if (conf?.ok) mode = MODE_BY_CODE[str(conf.v['bitmain-work-mode'] ?? conf.v['miner-mode'])] ?? 'normal';
    const rtNow = st?.rt5s ?? sm?.rt5s ?? 0;
    const idealNow = st?.ideal ?? 0;
    lastMode.set(h, { mode, nearNominal: idealNow > 0 && Math.abs(rtNow / idealNow - 1) < 0.08 && conf?.ok !== false });
    if (st?.type && st.type !== id.reportedModel) {
      id.reportedModel = st.type;
      id.model = displayModel(st.type, 'antminer-stock');
    }
    if (st?.compileTime && st.compileTime !== id.firmwareVersion) {
      id.firmwareVersion = st.compileTime;
      id.compileTime = parseCompileTime(st.compileTime);
    }
    const boards =
      st?.boards ??
      Array.from({ length: expected.boards ?? 0 }, (_, i): MinerBoard => ({ index: i, chips: 0, expectedChips: expected.chipsPerBoard ?? 0, tempPcb: [], tempChip: [], tempPic: [], rateGhs: 0, hwErrors: 0 }));
    const r: MinerReading = {
      ip: id.ip,
      mac: h.detail?.mac ?? '',
      sn: h.detail?.sn ?? '',
      make: 'Antminer',
      model: id.model,
      family: 'antminer-stock',
      firmwareVersion: id.firmwareVersion,
      compileTime: id.compileTime,
      rt5s: round2(st?.rt5s ?? sm?.rt5s ?? 0),
      rate30m: round2(st?.rate30m || sm?.rate30m || 0),
      avg: round2(st?.avg ?? sm?.avg ?? 0),
      ideal: round2(st?.ideal ?? 0),
      boards,
      fans: st?.fans ?? Array.from({ length: expected.fans ?? 0 }, () => 0),
      pools: poolsR?.ok ? parsePools(poolsR.reply) : [],
      workMode: mode,
      elapsedSec: st?.elapsed ?? sm?.elapsed ?? 0,
      errorCodes,
    };
    if (st?.powerW) r.powerW = st.powerW;
    if (h.detail?.blink !== undefined) r.blink = h.detail.blink;
    return r;
  },

  async reboot(h, env) {
    try {
      const res = await webClient(h, env).reboot();
      if (res.status >= 400) throw new OpError('miner-error', `reboot.cgi: HTTP ${res.status}`);
    } catch (e) {
      // the unit may drop the connection as it goes down
      if (e instanceof HttpError && (e.kind === 'reset' || e.kind === 'timeout')) return;
      throw e;
    }
  },

  async blink(h, env, on) {
    const r = await webClient(h, env).blink(on);
    const code = str(r['code']);
    if (on ? !/^B00/.test(code) : !/^B1|^B00/.test(code)) throw new OpError('miner-error', `blink.cgi: ${code || JSON.stringify(r)}`);
  },

  async setPools(h, env, pools, suffix, sn) {
    const body = [0, 1, 2].map((i) => {
      const p = pools[i];
      return p ? { url: p.url, user: workerWithSuffix(p.user, suffix, h.id.ip, sn), pass: p.password } : { url: '', user: '', pass: '' };
    });
    await confOk(webClient(h, env).setMinerConf({ pools: body }));
  },

  async workMode(h, env, mode) {
    const code = CODE_BY_MODE[mode];
    await confOk(webClient(h, env).setMinerConf({ 'miner-mode': code, 'bitmain-work-mode': String(code) }));
  },

  async factoryReset(h, env) {
    const res = await webClient(h, env).resetConf();
    if (res.status < 200 || res.status >= 300) throw new OpError('miner-error', `reset_conf.cgi: HTTP ${res.status}`);
  },

  async changePassword(h, env, newPassword) {
    const web = webClient(h, env);
    // authenticate first so currentCredential() is the one the miner accepts
    await web.getSystemInfo();
    const cur = web.currentCredential()?.password ?? 'root';
    const r = await web.passwd(cur, newPassword);
    if (str(r['stats']) !== 'success') throw new OpError('miner-error', `passwd.cgi: ${str(r['code'])} ${str(r['msg'])}`);
    const creds = env.credentials.antminer.length > 0 ? env.credentials.antminer : [{ user: web.currentCredential()?.user ?? 'root', password: cur }];
    web.setCredentials([{ user: web.currentCredential()?.user ?? 'root', password: newPassword }, ...creds]);
    webCreds.set(web, env.credentials.antminer);
  },

  async firmwareUpgrade(h, env, file, fileName, keepSettings) {
    const r = await webClient(h, env).upgrade(file, fileName, keepSettings);
    if (str(r['stats']) !== 'success' && !/^U000/.test(str(r['code']))) throw new OpError('miner-error', `upgrade.cgi: ${str(r['code'])} ${str(r['msg'])}`);
  },

  async dhcp(h, env) {
    const web = webClient(h, env);
    let host = 'Antminer';
    try {
      const ni = await web.getNetworkInfo();
      host = str(ni['conf_hostname']) || str(ni['hostname']) || host;
    } catch (e) {
      if (e instanceof HttpError && e.kind === 'auth-failed') throw e;
    }
    const r = await web.setNetworkConf({ ipAddress: '', ipDns: '', ipGateway: '', ipHost: host, ipPro: 1, ipSub: '' });
    if (str(r['stats']) !== 'success') throw new OpError('miner-error', `set_network_conf.cgi: ${str(r['code'])} ${str(r['msg'])}`);
  },

  async adjustHashrate(h, env, percent) {
    const p = String(Math.round(Math.min(100, Math.max(65, percent))));
    await confOk(webClient(h, env).setMinerConf({ 'freq-level': p, 'bitmain-freq-level': p }));
  },

  /**
   * Stock firmware takes no frequency in MHz: `bitmain-freq` is read-only in practice and the writable knob is
   * `freq-level`, a percent of the unit's nominal frequency (§2.3). The target is converted against the nominal
   * `bitmain-freq` the unit reports (catalogue value as fallback).
   */
  async setFrequency(h, env, freqMhz) {
    const web = webClient(h, env);
    const conf = await web.getMinerConf();
    const nominal = num(conf['bitmain-freq']) || (lookupModel(h.id.reportedModel, 'antminer-stock')?.freqMhz ?? 0);
    if (!(nominal > 0)) throw new OpError('miner-error', 'get_miner_conf.cgi reports no nominal frequency (bitmain-freq)');
    const level = Math.round((freqMhz / nominal) * 100);
    if (level < FREQ_LEVEL_MIN || level > FREQ_LEVEL_MAX) {
      throw new OpError('invalid-params', `${freqMhz} MHz is ${level} % of the nominal ${nominal} MHz (freq-level ${FREQ_LEVEL_MIN}–${FREQ_LEVEL_MAX} %)`);
    }
    await confOk(web.setMinerConf({ 'freq-level': String(level), 'bitmain-freq-level': String(level) }));
  },

  /** The stock CGI API has no power-percent setting (set_miner_conf.cgi: pools, fans, work mode, freq-level). */
  async powerPercent() {
    throw new OpError('unsupported-op', 'stock Antminer web API has no power-percent setting (set_miner_conf.cgi takes pools, fans, work mode and freq-level)');
  },

  async setFans(h, env, mode, percent) {
    const body = mode === 'auto' ? { 'bitmain-fan-ctrl': false, 'bitmain-fan-pwm': '100' } : { 'bitmain-fan-ctrl': true, 'bitmain-fan-pwm': String(Math.round(percent ?? 100)) };
    await confOk(webClient(h, env).setMinerConf(body));
  },
};

/** freq-level bounds the agent writes (percent of nominal frequency). */
const FREQ_LEVEL_MIN = 50;
const FREQ_LEVEL_MAX = 120;

async function confOk(p: Promise<Obj>): Promise<void> {
  const r = await p;
  if (str(r['stats']) !== 'success' && str(r['code']) !== 'M000') throw new OpError('miner-error', `set_miner_conf.cgi: ${str(r['code'])} ${str(r['msg'])}`);
}
