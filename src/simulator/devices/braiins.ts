import { NON_MINING_FAULTS, type SimEnv } from '../sim-types';
import { checkWebToken, issueWebToken, tokenFromHeaders } from '../web-token';
import { jsonReply, textReply, type WebReply, type WebRequest } from '../web-types';
import {
  CGMINER_COMMANDS, errorReply, invalidCommand, round2, statusArray, stratumHost, whenSec,
  type CgFamilyHandler, type JsonObject, type RpcRequest,
} from './cgminer-common';
import type { SimMiner } from './sim-miner';

/** Braiins OS (BOSer): CGMiner-compatible API on 4028 in MH/s (§4.1), web root page, REST `/api/v1` on 25.07+ (§4.3). */

const BOSER = 'boser-buildroot 0.1.0-45f356ea';
const DESCRIPTION = `BOSer ${BOSER}`;
const EXTRA = new Set(['fans', 'temps', 'tempctrl', 'tunerstatus', 'pause', 'resume']);

function mhs(ghs: number): number {
  return round2(ghs * 1000);
}

function hasRest(m: SimMiner): boolean {
  return m.firmware.date >= '20250701';
}

function ok(when: number, code: number, msg: string): JsonObject[] {
  return statusArray('S', when, code, msg, DESCRIPTION);
}

function poolsReply(m: SimMiner, when: number): JsonObject {
  const active = m.activePool;
  const sh = m.shares();
  return {
    STATUS: ok(when, 7, `${m.pools.filter((p) => p.url).length} Pool(s)`),
    POOLS: m.pools.map((p, i) => ({ p, i })).filter(({ p }) => p.url !== '').map(({ p, i }) => {
      const on = i === active && m.mining;
      return {
        POOL: i, URL: p.url, Status: p.status, Priority: i, Quota: 1, 'Long Poll': 'N', Getworks: on ? Math.floor(m.elapsed / 30) : 0,
        Accepted: on ? sh.accepted : 0, Rejected: on ? sh.rejected : 0, Works: 0, Discarded: 0, Stale: on ? sh.stale : 0,
        'Get Failures': 0, 'Remote Failures': 0, User: p.user, 'Last Share Time': on ? Math.floor(Date.now() / 1000) - 4 : 0,
        'Diff1 Shares': 0, 'Proxy Type': '', Proxy: '', 'Difficulty Accepted': on ? sh.accepted * 262144 : 0, 'Difficulty Rejected': 0,
        'Difficulty Stale': 0, 'Last Share Difficulty': on ? 262144 : 0, 'Work Difficulty': 0, 'Has Stratum': true, 'Stratum Active': on,
        'Stratum URL': on ? stratumHost(p.url) : '', 'Stratum Difficulty': on ? 262144 : 0, 'Has Vmask': true, 'Has GBT': false,
        'Best Share': on ? 776342690 : 0, 'Pool Rejected%': 0, 'Pool Stale%': 0, 'Bad Work': 0, 'Current Block Height': 0,
        'Current Block Version': 0, AsicBoost: true,
      };
    }),
    id: 1,
  };
}

function poolArg(m: SimMiner, param: string | undefined, when: number): { idx: number } | { err: JsonObject } {
  if (param === undefined || param === '') return { err: errorReply(when, 25, 'Missing pool id parameter', DESCRIPTION) };
  const idx = Number(param);
  if (!Number.isInteger(idx) || idx < 0 || idx >= m.pools.length || m.pools[idx]?.url === '') {
    return { err: errorReply(when, 26, `Invalid pool id ${param} - range is 0 - ${m.pools.length - 1}`, DESCRIPTION) };
  }
  return { idx };
}

export const braiinsRpc: CgFamilyHandler = {
  description: () => DESCRIPTION,
  single(m: SimMiner, req: RpcRequest, now: number) {
    const when = whenSec(now);
    const cmd = req.command;
    if (!CGMINER_COMMANDS.has(cmd) && !EXTRA.has(cmd)) return { reply: invalidCommand(when, DESCRIPTION) };
    const boards = m.boards;
    const sh = m.shares();
    const av = m.averages;
    switch (cmd) {
      case 'version':
        return { reply: { STATUS: ok(when, 22, 'BOSer versions'), VERSION: [{ BOSer: BOSER, API: '3.7' }], id: 1 } };
      case 'summary':
        return {
          reply: {
            STATUS: ok(when, 11, 'Summary'),
            SUMMARY: [{
              Elapsed: m.elapsed, 'MHS av': mhs(av.av), 'MHS 5s': mhs(m.hashrateGhs), 'MHS 1m': mhs(m.hashrateGhs), 'MHS 5m': mhs(av.m30),
              'MHS 15m': mhs(av.m30), 'Found Blocks': 0, Getworks: Math.floor(m.elapsed / 30), Accepted: sh.accepted, Rejected: sh.rejected,
              'Hardware Errors': boards.reduce((s, b) => s + b.hwErrors, 0), Utility: 0, Discarded: 0, Stale: sh.stale, 'Get Failures': 0,
              'Local Work': 0, 'Remote Failures': 0, 'Network Blocks': 0, 'Total MH': Math.round(av.av * 1000 * m.elapsed),
              'Work Utility': 0, 'Difficulty Accepted': sh.accepted * 262144, 'Difficulty Rejected': 0, 'Difficulty Stale': 0,
              'Best Share': 776342690, 'Device Hardware%': 0, 'Device Rejected%': 0, 'Pool Rejected%': 0, 'Pool Stale%': 0, 'Last getwork': when,
            }],
            id: 1,
          },
        };
      case 'pools': return { reply: poolsReply(m, when) };
      case 'devs': case 'edevs':
        return {
          reply: {
            STATUS: ok(when, 9, `${boards.length} ASC(s)`),
            DEVS: boards.map((b) => ({
              ASC: b.index, Name: '', ID: b.index + 1, Enabled: 'Y', Status: b.present ? 'Alive' : 'Dead', Temperature: b.tempChip[2] ?? 0,
              'MHS av': mhs(b.rateGhs), 'MHS 5s': mhs(b.rateGhs), 'MHS 1m': mhs(b.rateGhs), 'MHS 5m': mhs(b.rateGhs), 'MHS 15m': mhs(b.rateGhs),
              'Nominal MHS': mhs(b.idealGhs), Accepted: Math.floor(sh.accepted / boards.length), Rejected: 0, 'Hardware Errors': b.hwErrors,
              'Device Elapsed': m.elapsed,
            })),
            id: 1,
          },
        };
      case 'devdetails':
        return {
          reply: {
            STATUS: ok(when, 69, 'Device Details'),
            DEVDETAILS: boards.map((b) => ({ DEVDETAILS: b.index, Name: '', ID: b.index + 1, Driver: '', Kernel: '', Model: m.model.reportedName, 'Device Path': '', Chips: b.chips })),
            id: 1,
          },
        };
      case 'stats': case 'estats':
        return { reply: { STATUS: ok(when, 70, 'BOSer stats'), STATS: [{ STATS: 0, ID: 'BOSer0', Elapsed: m.elapsed, Calls: 0, Wait: 0, Max: 0, Min: 99999999 }], id: 1 } };
      case 'temps':
        return { reply: { STATUS: ok(when, 201, `${boards.length} Temp(s)`), TEMPS: boards.map((b) => ({ TEMP: b.index, ID: b.index + 1, Board: Math.max(...b.tempPcb), Chip: Math.max(...b.tempChip) })), id: 1 } };
      case 'fans': {
        const pct = m.fanCtrl ? m.fanPwm : m.workMode === 'sleep' ? 20 : 70;
        return { reply: { STATUS: ok(when, 202, `${m.model.fans} Fan(s)`), FANS: m.fans.map((f) => ({ FAN: f.index, ID: f.index, RPM: f.rpm, Speed: pct })), id: 1 } };
      }
      case 'tempctrl':
        return { reply: { STATUS: ok(when, 200, 'Temperature control'), TEMPCTRL: [{ Mode: m.fanCtrl ? 'Manual' : 'Automatic', Target: 75, Hot: 90, Dangerous: 100 }], id: 1 } };
      case 'tunerstatus': {
        const status = (i: number): string => {
          const b = boards[i];
          if (!b || !b.present) return `Failed to initialize hashboard {chain: ${i + 1}}`;
          if (m.hasFault('missing-chip') && i === 0) return 'Failed to tune chips {missing asics}';
          return 'Stable';
        };
        return {
          reply: {
            STATUS: ok(when, 0, 'Tuner Status'),
            TUNERSTATUS: [{
              PowerLimit: Math.round(m.model.powerW * 1.05), ApproximateMinerPowerConsumption: m.powerW,
              ApproximateChainPowerConsumption: Math.max(0, m.powerW - 90),
              TunerChainStatus: boards.map((b) => ({ HashchainIndex: b.index + 1, Status: status(b.index) })),
            }],
            id: 1,
          },
        };
      }
      case 'pause': m.setWorkMode('sleep'); return { reply: { STATUS: ok(when, 0, 'Paused'), PAUSE: [true], id: 1 } };
      case 'resume': m.setWorkMode('normal'); return { reply: { STATUS: ok(when, 0, 'Resumed'), RESUME: [true], id: 1 } };
      case 'addpool': {
        const [url, user, pass] = (req.parameter ?? '').split(',');
        if (!url) return { reply: errorReply(when, 52, 'Missing addpool details', DESCRIPTION) };
        const free = m.pools.findIndex((p) => p.url === '');
        if (free < 0) return { reply: errorReply(when, 54, `Reached maximum number of pools (${m.pools.length})`, DESCRIPTION) };
        const pools = m.pools.map((p) => ({ ...p }));
        pools[free] = { url, user: user ?? '', password: pass ?? '', status: 'Alive' };
        m.setPools(pools);
        return { reply: { STATUS: ok(when, 55, `Added pool '${url}'`), id: 1 } };
      }
      case 'removepool': case 'switchpool': case 'enablepool': case 'disablepool': {
        const a = poolArg(m, req.parameter, when);
        if ('err' in a) return { reply: a.err };
        const pool = m.pools[a.idx]!;
        if (cmd === 'removepool') {
          if (a.idx === m.activePool) return { reply: errorReply(when, 67, `Cannot remove active pool ${a.idx}:'${pool.url}'`, DESCRIPTION) };
          const pools = m.pools.filter((_, i) => i !== a.idx);
          m.setPools(pools);
          return { reply: { STATUS: ok(when, 68, `Removed pool ${a.idx}:'${pool.url}'`), id: 1 } };
        }
        if (cmd === 'switchpool') {
          const pools = [pool, ...m.pools.filter((_, i) => i !== a.idx)];
          m.setPools(pools.map((p) => ({ ...p, password: p.password })));
          return { reply: { STATUS: ok(when, 27, `Switching to pool ${a.idx}:'${pool.url}'`), id: 1 } };
        }
        if (cmd === 'enablepool') {
          if (pool.status !== 'Disabled') return { reply: { STATUS: statusArray('I', when, 49, `Pool ${a.idx}:'${pool.url}' already enabled`, DESCRIPTION), id: 1 } };
          pool.status = 'Alive';
          return { reply: { STATUS: ok(when, 47, `Enabling pool ${a.idx}:'${pool.url}'`), id: 1 } };
        }
        if (pool.status === 'Disabled') return { reply: { STATUS: statusArray('I', when, 50, `Pool ${a.idx}:'${pool.url}' already disabled`, DESCRIPTION), id: 1 } };
        if (m.pools.filter((p) => p.url && p.status !== 'Disabled').length <= 1) {
          return { reply: errorReply(when, 51, `Cannot disable last active pool ${a.idx}:'${pool.url}'`, DESCRIPTION) };
        }
        pool.status = 'Disabled';
        return { reply: { STATUS: ok(when, 48, `Disabling pool ${a.idx}:'${pool.url}'`), id: 1 } };
      }
      case 'asccount':
        return { reply: { STATUS: ok(when, 104, 'ASC count'), ASCS: [{ Count: boards.length }], id: 1 } };
      case 'restart':
        return { reply: { STATUS: 'RESTART', id: 1 }, after: () => m.restartProcess() };
      default:
        return { reply: invalidCommand(when, DESCRIPTION) };
    }
  },
};

// ------------------------------------------------------------------ web

const TOKEN_TTL_MS = 3600_000;

function restUnauthorized(): WebReply {
  return jsonReply({ code: 16, message: 'Unauthenticated' }, 401);
}

function bodyJson(req: WebRequest): unknown {
  const t = req.body.toString('utf8').trim();
  if (!t) return null;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

function restDetails(m: SimMiner): JsonObject {
  return {
    uid: m.mac.replace(/:/g, '').slice(-12), hostname: m.network.hostname, mac_address: m.mac.toLowerCase(), kernel_version: '4.9.113',
    miner_identity: { brand: 1, model: 18, name: m.model.reportedName.replace(/^Bitmain /, ''), miner_model: m.model.reportedName.replace(/^Bitmain /, '') },
    bos_mode: 4, platform: 4, control_board_soc_family: 3, status: m.mining ? 2 : 3,
    bos_version: { current: m.firmware.version, major: '2022-09-13-0-11012d53-22.08-plus', bos_plus: true },
    sticker_hashrate: { gigahash_per_second: m.model.idealGhs }, system_uptime_s: m.elapsed + 40, bosminer_uptime_s: m.elapsed,
    psu_info: { model_name: 'APW121215d/e', version: 117, min_voltage: { volt: 11.96 }, max_voltage: { volt: 15.2 }, serial_number: null, fw_version: null },
    serial_number: m.sn || null,
  };
}

function restStats(m: SimMiner): JsonObject {
  const av = m.averages;
  const sh = m.shares();
  const g = (v: number): JsonObject => ({ gigahash_per_second: round2(v) });
  const rate = m.hashrateGhs;
  return {
    miner_stats: { real_hashrate: { last_5s: g(rate), last_1m: g(rate), last_15m: g(av.m30), last_1h: g(av.m30), last_24h: g(av.av) }, nominal_hashrate: g(m.model.idealGhs), error_hashrate: { megahash_per_second: 0 }, found_blocks: 0, best_share: 776342690 },
    pool_stats: { accepted_shares: sh.accepted, rejected_shares: sh.rejected, stale_shares: sh.stale, last_difficulty: 262144, best_share: 776342690 },
    power_stats: { approximated_consumption: { watt: m.powerW }, efficiency: { joule_per_terahash: rate > 0 ? round2(m.powerW / (rate / 1000)) : 0 } },
  };
}

export function braiinsWeb(m: SimMiner, req: WebRequest, env: SimEnv): WebReply {
  const now = env.now();
  if (req.path === '/' || req.path === '/index.html') {
    return textReply(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Braiins OS</title></head><body><div id="root">Braiins OS — ${m.network.hostname}</div></body></html>`, 200, 'text/html');
  }
  if (!req.path.startsWith('/api/v1/') || !hasRest(m)) return textReply('Not Found', 404);
  const path = req.path.replace(/\/+$/, '');
  if (path === '/api/v1/version') return jsonReply({ major: 1, minor: 0, patch: 0 });
  if (path === '/api/v1/auth/login' && req.method === 'POST') {
    const b = bodyJson(req) as JsonObject | null | undefined;
    if (!b || b.username !== m.web.username || b.password !== m.web.password) return jsonReply({ code: 16, message: 'Invalid credentials' }, 401);
    return jsonReply({ token: issueWebToken(env.secret, m.ip, m.web.password, now, TOKEN_TTL_MS), timeout_s: TOKEN_TTL_MS / 1000 });
  }
  if (!checkWebToken(env.secret, m.ip, m.web.password, now, tokenFromHeaders(req.headers))) return restUnauthorized();
  const put = req.method === 'PUT' || req.method === 'POST' || req.method === 'PATCH';
  switch (path) {
    case '/api/v1/miner/details': return jsonReply(restDetails(m));
    case '/api/v1/miner/stats': return jsonReply(restStats(m));
    case '/api/v1/miner/errors':
      return jsonReply({ errors: m.activeFaults.filter((f) => !NON_MINING_FAULTS.includes(f)).map((f) => ({ message: `simulated ${f}`, timestamp: new Date(m.faultSince(f) ?? now).toISOString(), components: [], error_codes: [] })) });
    case '/api/v1/miner/hw/hashboards':
      return jsonReply({ hashboards: m.boards.map((b) => ({ id: String(b.index + 1), enabled: b.present, chips_count: b.chips, board_temp: { degree_c: Math.max(...b.tempPcb) }, highest_chip_temp: { temperature: { degree_c: Math.max(...b.tempChip) } }, stats: { real_hashrate: { last_5s: { gigahash_per_second: b.rateGhs } } }, serial_number: b.sn })) });
    case '/api/v1/cooling/state':
      return jsonReply({ fans: m.fans.map((f) => ({ position: f.index, rpm: f.rpm, target_speed_ratio: m.fanCtrl ? m.fanPwm / 100 : 0.7 })), highest_temperature: { id: null, location: 1, temperature: { degree_c: Math.max(0, ...m.boards.flatMap((b) => b.tempChip)) } } });
    case '/api/v1/cooling/mode': {
      // tagged union: {"auto":{…}} | {"manual":{"fan_speed":{"target_speed_ratio":r}}} | {"immersion":{}}
      const b = bodyJson(req) as JsonObject | null | undefined;
      if (!put || !b || typeof b !== 'object') return jsonReply({ code: 3, message: 'invalid cooling mode' }, 400);
      if (b.auto !== undefined) {
        m.fanCtrl = false;
        m.fanPwm = 100;
      } else if (b.immersion !== undefined) {
        m.fanCtrl = true;
        m.fanPwm = 0;
      } else if (b.manual !== undefined) {
        const fs = ((b.manual as JsonObject | null)?.fan_speed ?? {}) as JsonObject;
        const ratio = Number(fs.target_speed_ratio);
        if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) return jsonReply({ code: 3, message: 'target_speed_ratio must be 0–1' }, 400);
        m.fanCtrl = true;
        m.fanPwm = Math.round(ratio * 100);
      } else return jsonReply({ code: 3, message: 'invalid cooling mode' }, 400);
      return jsonReply(b);
    }
    case '/api/v1/actions/locate':
      if (put) {
        const v = bodyJson(req);
        m.blink = v === true || v === 'true' || (typeof v === 'object' && v !== null && (v as JsonObject).enable === true);
        return jsonReply(m.blink);
      }
      return jsonReply(m.blink);
    case '/api/v1/actions/pause': case '/api/v1/actions/stop':
      m.setWorkMode('sleep'); return jsonReply({});
    case '/api/v1/actions/resume': case '/api/v1/actions/start':
      m.setWorkMode('normal'); return jsonReply({});
    case '/api/v1/actions/restart': return { ...jsonReply({}), after: () => m.restartProcess() };
    case '/api/v1/actions/reboot': return { ...jsonReply({}), after: () => m.reboot() };
    case '/api/v1/auth/password': {
      const b = bodyJson(req) as JsonObject | null | undefined;
      const pw = b === null ? '' : typeof b?.password === 'string' ? b.password : undefined;
      if (pw === undefined) return jsonReply({ code: 3, message: 'invalid body' }, 400);
      return { ...jsonReply({}), after: () => m.setPassword(pw) };
    }
    case '/api/v1/pools': {
      const pools = m.pools.filter((p) => p.url).map((p, i) => ({ uid: String(i), url: p.url, user: p.user, enabled: p.status !== 'Disabled', alive: p.status === 'Alive', active: i === m.activePool, stats: { accepted_shares: i === m.activePool ? m.shares().accepted : 0, rejected_shares: 0 } }));
      return jsonReply([{ uid: 'g0', name: 'Pools', pools, strategy: { priority: {} } }]);
    }
    case '/api/v1/pools/batch': {
      const b = bodyJson(req);
      const group = Array.isArray(b) ? (b[0] as JsonObject | undefined) : undefined;
      const list = group && Array.isArray(group.pools) ? (group.pools as JsonObject[]) : null;
      if (!list) return jsonReply({ code: 3, message: 'invalid pool groups' }, 400);
      m.setPools(list.map((p) => ({ url: String(p.url ?? ''), user: String(p.user ?? ''), password: String(p.password ?? '') })));
      return jsonReply(b);
    }
    default:
      return jsonReply({ code: 5, message: 'Not found' }, 404);
  }
}
