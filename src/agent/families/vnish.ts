import type { MinerBoard, MinerErrorCode, WorkMode } from '@shared/schemas/miner-snapshot';
import { displayModel, lookupModel } from '../catalogue';
import { type MinerLog, tailBytes } from '../log-text';
import { OpError, joinOptions, learnJoin, unsupportedOp, detailDue as isDetailDue, detailStamp, type DriverEnv, type FamilyDriver, type MinerHandle, type MinerReading } from '../miner-types';
import { arr, bool, cgPools, int, networkMode, nonNeg, num, obj, parseCompileTime, round2, str, temps, toGhsFactor, upperMac, workerWithSuffix } from '../normalise-util';
import { RpcError, rpcMulti } from '../protocols/cgminer-rpc';
import { HttpError, httpRequest, multipartBody } from '../protocols/http-client';
import { RestClient, VNISH_REST } from '../protocols/rest-client';

/**
 * VNish / AnthillOS on Antminer hardware (miner-protocols.md §6). Per cycle one RPC connection
 * `summary+pools+stats` (stats carries Type, per-chain data and the miner `state`); every
 * detailEveryCycles the public web endpoints `/api/v1/info` (MAC, serial), `/api/v1/status` (find-miner LED)
 * and `/api/v1/perf-summary` (autotune preset → low-power/high). Writes use the web API with the unlock token.
 */

const restClients = new WeakMap<MinerHandle, RestClient>();
const presetMode = new WeakMap<MinerHandle, WorkMode>();

function rest(h: MinerHandle, env: DriverEnv): RestClient {
  let c = restClients.get(h);
  if (!c || c.port !== env.ports.web) {
    const creds = env.credentials.vnish.length > 0 ? env.credentials.vnish : [{ user: 'admin', password: 'admin' }];
    c = new RestClient(h.id.ip, env.ports.web, VNISH_REST, creds, env.webTimeoutMs);
    restClients.set(h, c);
  }
  return c;
}

/** Presets are watt names; classify the current one against the model's nominal power. */
function modeFromPreset(preset: string, nominalW: number | undefined): WorkMode {
  const w = num(preset);
  if (!nominalW || !(w > 0)) return 'normal';
  if (w < nominalW * 0.9) return 'low-power';
  if (w > nominalW * 1.05) return 'high';
  return 'normal';
}

/** The joined RPC read of every cycle (the REST reads are detail-cycle only). */
export const VNISH_CYCLE_READS: readonly string[] = Object.freeze(['summary', 'pools', 'stats']);

export const vnishDriver: FamilyDriver = {
  async read(h, env) {
    const id = h.id;
    const model = lookupModel(id.reportedModel, 'vnish');
    const detailDue = isDetailDue(h, env.detailEveryCycles);
    const c = rest(h, env);
    const [multi, info, status, perf] = await Promise.all([
      rpcMulti(id.ip, env.ports.rpc, VNISH_CYCLE_READS, { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs, ...joinOptions(h) }),
      detailDue ? c.call<Record<string, unknown>>('GET', '/api/v1/info', undefined, { auth: false }).catch(() => null) : Promise.resolve(null),
      detailDue ? c.call<Record<string, unknown>>('GET', '/api/v1/status', undefined, { auth: false }).catch(() => null) : Promise.resolve(null),
      detailDue ? c.call<Record<string, unknown>>('GET', '/api/v1/perf-summary', undefined, { auth: false }).catch(() => null) : Promise.resolve(null),
    ]);
    learnJoin(h, multi);
    const statsR = multi.results['stats'];
    const sumR = multi.results['summary'];
    if (!statsR?.ok && !sumR?.ok) throw (statsR && !statsR.ok ? statsR.error : null) ?? new RpcError('empty', 'no reply');
    if (info) {
      const ns = obj(obj(info['system'])['network_status']);
      const serial = str(info['serial']);
      h.detail = { mac: upperMac(ns['mac']), sn: serial === 'N/A' ? '' : serial, blink: h.detail?.blink, net: networkMode(ns['dhcp']) ?? h.detail?.net, cycle: detailStamp(h, env.detailEveryCycles) };
    } else if (detailDue) h.detail = { mac: h.detail?.mac ?? '', sn: h.detail?.sn ?? '', blink: h.detail?.blink, net: h.detail?.net, cycle: detailStamp(h, env.detailEveryCycles) };
    if (status && h.detail) h.detail.blink = bool(status['find_miner']);
    if (perf) presetMode.set(h, modeFromPreset(str(obj(perf['current_preset'])['name']), model?.powerW));

    const stats = statsR?.ok ? arr(statsR.reply['STATS']).map(obj) : [];
    const ident = stats.find((x) => x['Type'] !== undefined) ?? {};
    const flat = stats.find((x) => x['Elapsed'] !== undefined || x['GHS 5s'] !== undefined) ?? {};
    const type = str(ident['Type']);
    if (type && type !== id.reportedModel) {
      id.reportedModel = type;
      id.model = displayModel(type, 'vnish');
    }
    const ver = str(ident['Cgminer']) || (/Vnish\s+([\d.]+)/i.exec(type)?.[1] ?? '');
    if (ver && ver !== id.firmwareVersion) id.firmwareVersion = ver;
    if (str(ident['CompileTime'])) id.compileTime = parseCompileTime(str(ident['CompileTime']));
    const f = toGhsFactor(str(flat['rate_unit']) || 'GH');
    const n = model?.hashboards ?? Math.max(0, ...Object.keys(flat).map((k) => /^chain_acn(\d+)$/.exec(k)?.[1]).filter(Boolean).map(Number));
    const boards: MinerBoard[] = [];
    const errorCodes: MinerErrorCode[] = [];
    for (let i = 0; i < n; i++) {
      const k = i + 1;
      const chips = int(flat[`chain_acn${k}`]);
      const b: MinerBoard = {
        index: i,
        chips,
        expectedChips: model?.chipsPerBoard ?? chips,
        tempPcb: temps(flat[`temp_pcb${k}`]),
        tempChip: temps(flat[`temp_chip${k}`]),
        tempPic: temps(flat[`temp_sens${k}`]),
        rateGhs: round2(nonNeg(flat[`chain_rate${k}`]) * f),
        hwErrors: int(flat[`chain_hw${k}`]),
      };
      const fr = num(flat[`freq_avg${k}`]);
      if (fr > 0) b.freqMhz = fr;
      if (str(flat[`chain_state${k}`]) === 'failure') {
        b.failed = true;
        errorCodes.push({ code: 0, message: `chain ${k}: ${str(flat[`chain_fault${k}`]) || 'failure'}` });
      }
      boards.push(b);
    }
    const fans: number[] = [];
    const fanNum = int(flat['fan_num']);
    for (let k = 1; k <= Math.max(fanNum, model?.fans ?? 0); k++) fans.push(nonNeg(flat[`fan${k}`]));
    const s = sumR?.ok ? obj(arr(sumR.reply['SUMMARY'])[0]) : {};
    const state = str(flat['state']);
    if (state === 'failure') errorCodes.push({ code: 0, message: 'miner state: failure' });
    const workMode: WorkMode = state === 'stopped' ? 'sleep' : (presetMode.get(h) ?? 'normal');
    const power = Object.keys(flat).filter((k) => /^chain_consumption\d+$/.test(k)).reduce((acc, k) => acc + nonNeg(flat[k]), 0);
    const r: MinerReading = {
      ip: id.ip,
      mac: h.detail?.mac ?? '',
      sn: h.detail?.sn ?? '',
      make: model?.make ?? 'Antminer',
      model: id.model,
      family: 'vnish',
      firmwareVersion: id.firmwareVersion,
      compileTime: id.compileTime,
      rt5s: round2(nonNeg(flat['GHS 5s'] ?? s['GHS 5s']) * f),
      rate30m: round2(nonNeg(s['GHS 30m'] ?? flat['GHS av'] ?? s['GHS av']) * f),
      avg: round2(nonNeg(flat['GHS av'] ?? s['GHS av']) * f),
      ideal: round2(nonNeg(flat['total_rateideal']) * f),
      boards,
      fans: model ? fans.slice(0, model.fans) : fans,
      pools: cgPools(multi.results['pools']?.ok ? (multi.results['pools'] as { reply: Record<string, unknown> }).reply['POOLS'] : []),
      workMode,
      elapsedSec: nonNeg(flat['Elapsed'] ?? s['Elapsed']),
      errorCodes,
    };
    if (power > 0) r.powerW = power;
    if (h.detail?.blink !== undefined) r.blink = h.detail.blink;
    return r;
  },

  async reboot(h, env) {
    try {
      await authed(() => rest(h, env).call('POST', '/api/v1/system/reboot'));
    } catch (e) {
      if (e instanceof HttpError && (e.kind === 'reset' || e.kind === 'timeout')) return;
      throw e;
    }
  },
  async blink(h, env, on) {
    const r = await rest(h, env).call<Record<string, unknown>>('POST', '/api/v1/find-miner', { on }, { auth: false });
    if (r && typeof r === 'object' && 'on' in r && bool(r['on']) !== on) {
      // firmware that only toggles: toggle once more
      await rest(h, env).call('POST', '/api/v1/find-miner', { on }, { auth: false });
    }
    if (h.detail) h.detail.blink = on;
  },
  async setPools(h, env, pools, suffix, sn) {
    const list = [0, 1, 2].map((i) => {
      const p = pools[i];
      return p ? { url: p.url, user: workerWithSuffix(p.user, suffix, h.id.ip, sn), pass: p.password } : { url: '', user: '', pass: '' };
    });
    await authed(() => rest(h, env).call('POST', '/api/v1/settings', { miner: { pools: list } }));
  },
  async workMode(h, env, mode) {
    const c = rest(h, env);
    if (mode === 'sleep') {
      await authed(() => c.call('POST', '/api/v1/mining/stop'));
      return;
    }
    const presets = arr(await authed(() => c.call<unknown>('GET', '/api/v1/autotune/presets')))
      .map((p) => str(obj(p)['name']))
      .filter((n) => num(n) > 0)
      .sort((a, b) => num(a) - num(b));
    const nominal = lookupModel(h.id.reportedModel, 'vnish')?.powerW ?? 0;
    const pick =
      mode === 'low-power' ? presets[0] : mode === 'high' ? presets[presets.length - 1] : [...presets].sort((a, b) => Math.abs(num(a) - nominal) - Math.abs(num(b) - nominal))[0];
    await authed(() => c.call('POST', '/api/v1/mining/start'));
    if (pick) await authed(() => c.call('POST', '/api/v1/settings', { miner: { overclock: { preset: pick } } }));
    else if (mode !== 'normal') throw new OpError('unsupported-op', 'no autotune presets');
    presetMode.set(h, mode);
  },
  async factoryReset(h, env) {
    await authed(() => rest(h, env).call('POST', '/api/v1/settings/factory-reset'));
  },
  async changePassword() {
    throw new OpError('unsupported-op', 'VNish password changes are not exposed by its API');
  },
  async firmwareUpgrade(h, env, file, fileName) {
    const c = rest(h, env);
    const token = await authed(() => c.login());
    const mp = multipartBody({}, { field: 'file', name: fileName, data: file });
    const res = await httpRequest(h.id.ip, env.ports.web, '/api/v1/firmware/update', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': mp.contentType },
      body: mp.body,
      timeoutMs: Math.max(env.webTimeoutMs, 120000),
    });
    if (res.status < 200 || res.status >= 300) throw new OpError('miner-error', `firmware/update: HTTP ${res.status} ${res.body.slice(0, 80)}`);
  },
  async dhcp(h, env) {
    await authed(() => rest(h, env).call('POST', '/api/v1/settings', { network: { dhcp: true } }));
  },
  adjustHashrate: unsupportedOp,
  setFrequency: unsupportedOp,
  powerPercent: unsupportedOp,
  /** Settings `miner.cooling.mode` (§6.2): `auto`, or `manual` with the duty cycle as param (pyasic's mapping). */
  async setFans(h, env, mode, percent) {
    const p = Math.round(percent ?? 100);
    const cooling = mode === 'auto' ? { mode: { name: 'auto', param: 65 } } : { fan_min_duty: p, mode: { name: 'manual', param: p } };
    await authed(() => rest(h, env).call('POST', '/api/v1/settings', { miner: { cooling } }));
  },
};

/**
 * The logs VNish serves as text without auth (§6.2 `GET /api/v1/logs/{status|miner|autotune|system|messages|api}`)
 * that the system's daemons, dropbear among them, write to, in the order read. The reference names the logs but not
 * their content: `messages` is the name of the file busybox syslogd writes (/var/log/messages, every facility,
 * authpriv included), so it comes first; `system` is the likeliest other home of the syslog and is read when
 * `messages` is not served or empty. The others are named after the mining process, its autotune and its API.
 */
export const VNISH_SYSTEM_LOGS = ['/api/v1/logs/messages', '/api/v1/logs/system'] as const;

/**
 * The logs a history log of a VNish unit reads (spec 3 §7 history log), in order: the mining process's own log
 * (`miner`: its chains, chips, fans and temperatures — what a technician reads for a hashing fault; on stock firmware
 * these lines are in the kernel log), else the syslog.
 */
export const VNISH_HISTORY_LOGS = ['/api/v1/logs/miner', '/api/v1/logs/messages'] as const;

/** Reads the VNish system log (VNISH_SYSTEM_LOGS): see readVnishLog. */
export const readVnishSystemLog = (h: MinerHandle, env: DriverEnv): Promise<MinerLog> => readVnishLog(h, env, VNISH_SYSTEM_LOGS);

/**
 * Reads the first of `paths` that answers with text (the last HISTORY_LOG_MAX_BYTES). A network failure ends it at
 * once (the other paths are on the same port); an HTTP error from every path throws HttpError http-status; an empty
 * log read is an empty log.
 */
export async function readVnishLog(h: MinerHandle, env: DriverEnv, paths: readonly string[]): Promise<MinerLog> {
  let empty: MinerLog | null = null;
  let failed: HttpError | null = null;
  for (const path of paths) {
    const res = await httpRequest(h.id.ip, env.ports.web, path, { timeoutMs: Math.max(env.webTimeoutMs, 15000), keep: 'tail' });
    if (res.status < 200 || res.status >= 300) {
      failed ??= new HttpError('http-status', `${path}: HTTP ${res.status}`, res.status);
      continue;
    }
    if (res.body.trim()) return { content: tailBytes(res.body), source: path };
    empty ??= { content: '', source: path };
  }
  if (empty) return empty;
  throw failed ?? new OpError('unsupported-op', 'the miner serves no log');
}

async function authed<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof HttpError && e.kind === 'auth-failed') throw new OpError('auth-failed', e.message);
    throw e;
  }
}
