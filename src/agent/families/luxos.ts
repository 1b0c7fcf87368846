import type { MinerBoard, WorkMode } from '@shared/schemas/miner-snapshot';
import { displayModel, lookupModel } from '../catalogue';
import { OpError, joinOptions, learnJoin, unsupportedOp, type DriverEnv, type FamilyDriver, type MinerHandle, type MinerReading } from '../miner-types';
import { arr, cgPools, nonNeg, num, obj, parseCompileTime, round2, str, upperMac, workerWithSuffix } from '../normalise-util';
import { RpcError, readStatus, rpcCommand, rpcMulti, type RpcObject } from '../protocols/cgminer-rpc';
import { parseAntminerStats } from './antminer-stock';
import { setPoolsRpc } from './braiins';

/**
 * LuxOS (LUXminer on Antminer hardware, miner-protocols.md §5). Reads: one joined `summary+pools+stats+config+fans`
 * (stats in the stock flat layout, GH/s; config carries MAC, serial, red LED, curtail mode and profile).
 * Writes that change configuration run inside a session: reuse the active one (`session`), else `logon`, and
 * `logoff` afterwards when this call opened it (one session at a time: a foreign one → Code 402).
 */

/** The joined RPC read of every cycle. */
export const LUXOS_CYCLE_READS: readonly string[] = Object.freeze(['summary', 'pools', 'stats', 'config', 'fans']);

function rpcOpts(env: DriverEnv) {
  return { connectTimeoutMs: env.connectTimeoutMs, timeoutMs: env.rpcTimeoutMs };
}

/** Work mode from the config: curtailed = sleep; otherwise the profile's frequency against the nominal one. */
function modeOf(cfg: Record<string, unknown>, nominalMhz: number | undefined): WorkMode {
  if (/sleep/i.test(str(cfg['CurtailMode']))) return 'sleep';
  const mhz = /(\d+)\s*MHz/i.exec(str(cfg['Profile']));
  if (!mhz || !nominalMhz) return 'normal';
  const r = Number(mhz[1]) / nominalMhz;
  return r < 0.95 ? 'low-power' : r > 1.05 ? 'high' : 'normal';
}

async function call(h: MinerHandle, env: DriverEnv, command: string, parameter?: string, o: { expectDrop?: boolean } = {}): Promise<RpcObject> {
  let reply: RpcObject;
  try {
    reply = await rpcCommand(h.id.ip, env.ports.rpc, command, { ...rpcOpts(env), ...(parameter === undefined ? {} : { parameter }), allowError: true });
  } catch (e) {
    if (o.expectDrop && e instanceof RpcError && (e.kind === 'reset' || e.kind === 'timeout' || e.kind === 'empty')) return { STATUS: [{ STATUS: 'S', Msg: 'dropped (rebooting)' }] };
    throw e;
  }
  const st = readStatus(reply);
  if (st && st.letter !== 'S' && st.letter !== 'I') throw new OpError('miner-error', `${command}: ${st.code ?? ''} ${st.msg}`.trim());
  return reply;
}

/** Runs `fn(sessionId)` in a LuxOS session (§5.1). */
async function withSession<T>(h: MinerHandle, env: DriverEnv, fn: (sid: string) => Promise<T>): Promise<T> {
  const cur = await call(h, env, 'session');
  let sid = str(obj(arr(cur['SESSION'])[0])['SessionID']);
  let opened = false;
  if (!sid) {
    let r: RpcObject;
    try {
      r = await call(h, env, 'logon');
    } catch (e) {
      if (e instanceof OpError && /402/.test(e.message)) throw new OpError('miner-error', 'logon: another session is active (LuxOS allows one at a time)');
      throw e;
    }
    sid = str(obj(arr(r['SESSION'])[0])['SessionID']);
    if (!sid) throw new OpError('miner-error', 'logon: no SessionID');
    opened = true;
  }
  try {
    return await fn(sid);
  } finally {
    if (opened) await call(h, env, 'logoff', sid).catch(() => undefined);
  }
}

export const luxosDriver: FamilyDriver = {
  async read(h, env) {
    const id = h.id;
    const model = lookupModel(id.reportedModel, 'luxos');
    const expected = model ? { boards: model.hashboards, chipsPerBoard: model.chipsPerBoard, fans: model.fans } : {};
    const rpc = await rpcMulti(id.ip, env.ports.rpc, LUXOS_CYCLE_READS, { ...rpcOpts(env), ...joinOptions(h) });
    learnJoin(h, rpc);
    const stR = rpc.results['stats'];
    const smR = rpc.results['summary'];
    if (!stR?.ok && !smR?.ok) throw stR && !stR.ok ? stR.error : smR && !smR.ok ? smR.error : new RpcError('empty', 'no reply');
    const st = stR?.ok ? parseAntminerStats(stR.reply, expected) : null;
    const sm = smR?.ok ? obj(arr(smR.reply['SUMMARY'])[0]) : {};
    const cfgR = rpc.results['config'];
    const cfg = cfgR?.ok ? obj(arr(cfgR.reply['CONFIG'])[0]) : {};
    const poolsR = rpc.results['pools'];
    if (st?.type && st.type !== id.reportedModel) {
      id.reportedModel = st.type;
      id.model = displayModel(st.type, 'luxos');
    }
    const boards: MinerBoard[] =
      st?.boards ?? Array.from({ length: expected.boards ?? 0 }, (_, i) => ({ index: i, chips: 0, expectedChips: expected.chipsPerBoard ?? 0, tempPcb: [], tempChip: [], tempPic: [], rateGhs: 0, hwErrors: 0 }));
    const fansR = rpc.results['fans'];
    const fans = fansR?.ok ? arr(fansR.reply['FANS']).map((f) => nonNeg(obj(f)['RPM'])) : (st?.fans ?? []);
    const red = str(cfg['RedLed']);
    const r: MinerReading = {
      ip: id.ip,
      mac: upperMac(cfg['MACAddr']),
      sn: str(cfg['SerialNumber']),
      make: 'Antminer',
      model: id.model,
      family: 'luxos',
      firmwareVersion: id.firmwareVersion,
      compileTime: id.compileTime ?? parseCompileTime(st?.compileTime ?? ''),
      rt5s: round2(st?.rt5s ?? nonNeg(sm['GHS 5s'])),
      rate30m: round2(nonNeg(sm['GHS 30m']) || st?.rate30m || 0),
      avg: round2(st?.avg ?? nonNeg(sm['GHS av'])),
      ideal: round2(st?.ideal ?? 0),
      boards,
      fans: expected.fans !== undefined ? [...fans.slice(0, expected.fans), ...Array.from({ length: Math.max(0, expected.fans - fans.length) }, () => 0)] : fans,
      pools: poolsR?.ok ? cgPools(poolsR.reply['POOLS']) : [],
      workMode: modeOf(cfg, model?.freqMhz),
      elapsedSec: st?.elapsed ?? nonNeg(sm['Elapsed']),
      errorCodes: [],
    };
    if (red) r.blink = red !== 'off';
    return r;
  },

  async reboot(h, env) {
    await withSession(h, env, (sid) => call(h, env, 'rebootdevice', sid, { expectDrop: true }));
  },

  async blink(h, env, on) {
    await withSession(h, env, (sid) => call(h, env, 'ledset', `${sid},red,${on ? 'blink' : 'off'}`));
    if (h.detail) h.detail.blink = on;
  },

  /** cgminer pool commands need no session on LuxOS (§5.2). */
  async setPools(h, env, pools, suffix, sn) {
    await setPoolsRpc(h, env, pools.slice(0, 3).map((p) => ({ url: p.url, user: workerWithSuffix(p.user, suffix, h.id.ip, sn), password: p.password })));
  },

  /** sleep = `curtail …,sleep`; otherwise wake up and pick the profile: lowest (low power), default, highest (high). */
  async workMode(h, env, mode) {
    await withSession(h, env, async (sid) => {
      if (mode === 'sleep') {
        await call(h, env, 'curtail', `${sid},sleep`);
        return;
      }
      const profiles = arr((await call(h, env, 'profiles'))['PROFILES'])
        .map(obj)
        .map((p) => ({ name: str(p['Profile Name']), freq: num(p['Frequency']) }))
        .filter((p) => p.name !== '');
      const sorted = [...profiles].sort((a, b) => a.freq - b.freq);
      const pick = mode === 'low-power' ? sorted[0] : mode === 'high' ? sorted[sorted.length - 1] : profiles.find((p) => p.name === 'default');
      if (!pick) throw new OpError('unsupported-op', `no LuxOS profile for ${mode}`);
      await call(h, env, 'curtail', `${sid},wakeup`);
      await call(h, env, 'profileset', `${sid},${pick.name}`);
    });
  },

  async factoryReset(h, env) {
    await withSession(h, env, (sid) => call(h, env, 'resetconfig', sid));
  },

  async changePassword() {
    throw new OpError('unsupported-op', 'the LuxOS API has no password command');
  },
  async firmwareUpgrade() {
    throw new OpError('unsupported-op', 'LuxOS updates from its own update server (updaterun); no image upload over the API');
  },
  async dhcp() {
    throw new OpError('unsupported-op', 'LuxOS netset parameters are not documented in the protocol reference');
  },
  adjustHashrate: unsupportedOp,
  setFrequency: unsupportedOp,
  powerPercent: unsupportedOp,

  /** `fanset <sid>,speed=<pct>|-1,min_fans=<n>` (-1 = automatic, as pyasic writes it). */
  async setFans(h, env, mode, percent) {
    const minFans = lookupModel(h.id.reportedModel, 'luxos')?.fans ?? 4;
    await withSession(h, env, (sid) => call(h, env, 'fanset', `${sid},speed=${mode === 'auto' ? -1 : Math.round(percent ?? 100)},min_fans=${minFans}`));
  },
};
