import type { MinerBoard, MinerErrorCode, WorkMode } from '@shared/schemas/miner-snapshot';
import { lookupModel } from '../catalogue';
import { AGENT_ERROR, OpError, joinOptions, learnJoin, unsupportedOp, detailDue as isDetailDue, detailStamp, type DriverEnv, type FamilyDriver, type MinerHandle, type MinerReading } from '../miner-types';
import { arr, bool, cgPools, int, nonNeg, num, obj, round2, str, temps, upperMac, workerWithSuffix } from '../normalise-util';
import { RpcError, rpcCommand, rpcMulti, type RpcObject } from '../protocols/cgminer-rpc';
import { HttpError } from '../protocols/http-client';
import { BRAIINS_REST, RestClient } from '../protocols/rest-client';

/**
 * Braiins OS (miner-protocols.md §4): reads over the CGMiner-compatible API in MH/s
 * (`summary+pools+devs+devdetails+temps+fans+tunerstatus`, one connection), MAC/serial/locate over the
 * REST API when the build has it (25.07+). Writes: pause/resume and pools over RPC; reboot, locate,
 * password and pool batches over REST.
 */

const restClients = new WeakMap<MinerHandle, RestClient>();
/** Last work mode the agent itself set (BOS exposes pause only as zero hashrate + idle fans). */
const commanded = new WeakMap<MinerHandle, WorkMode>();

function rest(h: MinerHandle, env: DriverEnv): RestClient {
  let c = restClients.get(h);
  if (!c || c.port !== env.ports.web) {
    const creds = env.credentials.braiins.length > 0 ? env.credentials.braiins : [{ user: 'root', password: 'root' }];
    c = new RestClient(h.id.ip, env.ports.web, BRAIINS_REST, creds, env.webTimeoutMs);
    restClients.set(h, c);
  }
  return c;
}

const TUNER_OK = new Set(['stable', 'testing performance profile', 'tuning individual chips']);

/** The joined RPC read of every cycle. */
export const BRAIINS_CYCLE_READS: readonly string[] = Object.freeze(['summary', 'pools', 'devs', 'devdetails', 'temps', 'fans', 'tunerstatus']);

export const braiinsDriver: FamilyDriver = {
  async read(h, env) {
    const id = h.id;
    const model = lookupModel(id.reportedModel, 'braiins');
    const detailDue = isDetailDue(h, env.detailEveryCycles);
    const cmds = BRAIINS_CYCLE_READS;
    const [multi, details, locate] = await Promise.all([
      rpcMulti(id.ip, env.ports.rpc, cmds, { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs, ...joinOptions(h) }),
      detailDue ? rest(h, env).call<Record<string, unknown>>('GET', '/api/v1/miner/details').catch((e: unknown) => e) : Promise.resolve(undefined),
      detailDue ? rest(h, env).call<unknown>('GET', '/api/v1/actions/locate').catch(() => undefined) : Promise.resolve(undefined),
    ]);
    learnJoin(h, multi);
    const sum = multi.results['summary'];
    if (!sum?.ok) throw sum && !sum.ok ? sum.error : new RpcError('empty', 'no summary');
    const errorCodes: MinerErrorCode[] = [];
    if (details instanceof HttpError && details.kind === 'auth-failed') errorCodes.push({ ...AGENT_ERROR.authFailed });
    if (details && !(details instanceof Error) && typeof details === 'object') {
      const d = details as Record<string, unknown>;
      h.detail = { mac: upperMac(d['mac_address']), sn: str(d['serial_number']), blink: locate === undefined ? h.detail?.blink : bool(locate), cycle: detailStamp(h, env.detailEveryCycles) };
    } else if (detailDue) h.detail = { mac: h.detail?.mac ?? '', sn: h.detail?.sn ?? '', blink: h.detail?.blink, net: h.detail?.net, cycle: detailStamp(h, env.detailEveryCycles) };
    const s = obj(arr(sum.reply['SUMMARY'])[0]);
    const sec = (c: string): RpcObject | null => {
      const r = multi.results[c];
      return r?.ok ? r.reply : null;
    };
    const devs = arr(sec('devs')?.['DEVS']).map(obj);
    const details2 = arr(sec('devdetails')?.['DEVDETAILS']).map(obj);
    const tempsR = arr(sec('temps')?.['TEMPS']).map(obj);
    const tuner = arr(obj(arr(sec('tunerstatus')?.['TUNERSTATUS'])[0])['TunerChainStatus']).map(obj);
    const fansR = arr(sec('fans')?.['FANS']).map(obj);
    const n = Math.max(model?.hashboards ?? 0, devs.length);
    const boards: MinerBoard[] = [];
    let ideal = 0;
    for (let i = 0; i < n; i++) {
      const d = devs[i];
      const dd = details2.find((x) => int(x['ID']) === int(d?.['ID'])) ?? details2[i];
      const t = tempsR.find((x) => int(x['ID']) === int(d?.['ID'])) ?? tempsR[i];
      const tu = tuner.find((x) => int(x['HashchainIndex']) === int(d?.['ID']));
      const alive = d ? str(d['Status']).toLowerCase() === 'alive' : false;
      const chips = alive && dd ? int(dd['Chips']) : 0;
      ideal += d ? nonNeg(d['Nominal MHS']) / 1000 : 0;
      const tuStatus = tu ? str(tu['Status']) : '';
      const b: MinerBoard = {
        index: i,
        chips,
        expectedChips: model?.chipsPerBoard ?? chips,
        tempPcb: alive && t ? temps(t['Board']) : [],
        tempChip: alive && t ? temps(t['Chip']) : [],
        tempPic: [],
        rateGhs: d ? round2(nonNeg(d['MHS 5s'] ?? d['MHS 1m']) / 1000) : 0,
        hwErrors: d ? int(d['Hardware Errors']) : 0,
      };
      if (tuStatus && !TUNER_OK.has(tuStatus.toLowerCase())) {
        b.failed = true;
        errorCodes.push({ code: 0, message: `board ${i}: ${tuStatus.split(' {')[0]}` });
      }
      boards.push(b);
    }
    const fans = fansR.map((f) => nonNeg(f['RPM'])).slice(0, model?.fans ?? fansR.length);
    const rt = nonNeg(s['MHS 5s'] ?? s['MHS 1m']) / 1000;
    const fanDuty = fansR.length ? Math.max(...fansR.map((f) => num(f['Speed']))) : 100;
    const cmd = commanded.get(h);
    // paused: no hashing and either the agent paused it or the fans sit at idle duty
    const sleeping = rt === 0 && (cmd === 'sleep' || (fansR.length > 0 && fanDuty <= 20));
    const tun = obj(arr(sec('tunerstatus')?.['TUNERSTATUS'])[0]);
    const r: MinerReading = {
      ip: id.ip,
      mac: h.detail?.mac ?? '',
      sn: h.detail?.sn ?? '',
      make: model?.make ?? 'Antminer',
      model: id.model,
      family: 'braiins',
      firmwareVersion: id.firmwareVersion,
      compileTime: id.compileTime,
      rt5s: round2(rt),
      rate30m: round2(nonNeg(s['MHS 15m'] ?? s['MHS 5m'] ?? s['MHS av']) / 1000),
      avg: round2(nonNeg(s['MHS av']) / 1000),
      ideal: round2(ideal),
      boards,
      fans,
      pools: cgPools(sec('pools')?.['POOLS']),
      workMode: sleeping ? 'sleep' : 'normal',
      elapsedSec: nonNeg(s['Elapsed']),
      errorCodes,
    };
    const p = nonNeg(tun['ApproximateMinerPowerConsumption']);
    if (p > 0) r.powerW = p;
    if (h.detail?.blink !== undefined) r.blink = h.detail.blink;
    return r;
  },

  async reboot(h, env) {
    await restOrUnsupported(() => rest(h, env).call('PUT', '/api/v1/actions/reboot'));
  },

  async blink(h, env, on) {
    await restOrUnsupported(() => rest(h, env).call('PUT', '/api/v1/actions/locate', on));
    if (h.detail) h.detail.blink = on;
  },

  async setPools(h, env, pools, suffix, sn) {
    const wanted = pools.slice(0, 3).map((p) => ({ url: p.url, user: workerWithSuffix(p.user, suffix, h.id.ip, sn), password: p.password }));
    try {
      await rest(h, env).call('PUT', '/api/v1/pools/batch', [{ name: 'Pools', pools: wanted.map((p) => ({ ...p, enabled: true })) }]);
      return;
    } catch (e) {
      if (!(e instanceof HttpError && e.status === 404)) throw e;
    }
    await setPoolsRpc(h, env, wanted);
  },

  async workMode(h, env, mode) {
    if (mode !== 'sleep' && mode !== 'normal') throw new OpError('unsupported-op', `Braiins OS has no ${mode} work mode`);
    const reply = await rpcCommand(h.id.ip, env.ports.rpc, mode === 'sleep' ? 'pause' : 'resume', { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs });
    const key = mode === 'sleep' ? 'PAUSE' : 'RESUME';
    if (!Array.isArray(reply[key]) || reply[key][0] !== true) throw new OpError('miner-error', `${key.toLowerCase()}: ${JSON.stringify(reply).slice(0, 80)}`);
    commanded.set(h, mode);
  },

  async factoryReset() {
    throw new OpError('unsupported-op', 'factory reset is not exposed by the Braiins OS API');
  },

  async changePassword(h, env, newPassword) {
    const c = rest(h, env);
    await restOrUnsupported(() => c.call('PUT', '/api/v1/auth/password', { password: newPassword }));
    c.setCredentials([{ user: 'root', password: newPassword }, ...(env.credentials.braiins.length ? env.credentials.braiins : [{ user: 'root', password: 'root' }])]);
  },

  async firmwareUpgrade() {
    throw new OpError('unsupported-op', 'Braiins OS upgrades go through its own update server');
  },
  dhcp: unsupportedOp,
  adjustHashrate: unsupportedOp,
  setFrequency: unsupportedOp,
  powerPercent: unsupportedOp,
  /**
   * REST `PUT /api/v1/cooling/mode` (§4.3) with the mode as a tagged union: `{"auto":{}}` or
   * `{"manual":{"fan_speed":{"target_speed_ratio":0.7}}}` (body shape as public BOS REST clients send it).
   */
  async setFans(h, env, mode, percent) {
    const body = mode === 'auto' ? { auto: {} } : { manual: { fan_speed: { target_speed_ratio: Math.round(percent ?? 100) / 100 } } };
    await restOrUnsupported(() => rest(h, env).call('PUT', '/api/v1/cooling/mode', body));
  },
};

async function restOrUnsupported(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) throw new OpError('unsupported-op', 'this Braiins OS build has no REST API (25.07+)');
    if (e instanceof HttpError && e.kind === 'auth-failed') throw new OpError('auth-failed', e.message);
    throw e;
  }
}

/** cgminer pool replacement: drop old pools, add new ones, switch, drop the old active one, add the rest. */
export async function setPoolsRpc(h: MinerHandle, env: DriverEnv, wanted: Array<{ url: string; user: string; password: string }>): Promise<void> {
  const o = { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs };
  const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/,/g, '\\,');
  const list = async () => arr((await rpcCommand(h.id.ip, env.ports.rpc, 'pools', o))['POOLS']).map(obj).map((p) => ({ id: int(p['POOL']), url: str(p['URL']), user: str(p['User']) }));
  const isWanted = (p: { url: string; user: string }) => wanted.some((w) => w.url === p.url && w.user === p.user);
  // 1. remove every unwanted pool we can (highest id first); the active one refuses (Code 67)
  let blocked: string | null = null;
  for (const p of (await list()).filter((x) => !isWanted(x)).sort((a, b) => b.id - a.id)) {
    const r = await rpcCommand(h.id.ip, env.ports.rpc, 'removepool', { ...o, parameter: String(p.id), allowError: true });
    if (str(obj(arr(r['STATUS'])[0])['STATUS']) !== 'S') blocked = p.url;
  }
  // 2. add wanted pools while there is room
  const add = async () => {
    const have = await list();
    for (const w of wanted) {
      if (have.some((p) => p.url === w.url && p.user === w.user)) continue;
      const r = await rpcCommand(h.id.ip, env.ports.rpc, 'addpool', { ...o, parameter: `${esc(w.url)},${esc(w.user)},${esc(w.password)}`, allowError: true });
      if (str(obj(arr(r['STATUS'])[0])['STATUS']) !== 'S') break;
      have.push({ id: -1, url: w.url, user: w.user });
    }
  };
  await add();
  // 3. switch to the first wanted pool, then drop the previously active pool and add what is left
  const first = (await list()).find((p) => p.url === wanted[0]?.url && p.user === wanted[0]?.user);
  if (first) await rpcCommand(h.id.ip, env.ports.rpc, 'switchpool', { ...o, parameter: String(first.id), allowError: true });
  if (blocked) {
    const old = (await list()).find((p) => p.url === blocked && !isWanted(p));
    if (old) await rpcCommand(h.id.ip, env.ports.rpc, 'removepool', { ...o, parameter: String(old.id), allowError: true });
    await add();
  }
  const final = await list();
  if (!wanted.every((w) => final.some((p) => p.url === w.url && p.user === w.user))) throw new OpError('miner-error', 'pools were not all applied');
}
