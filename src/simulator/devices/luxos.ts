import { textReply, type WebReply, type WebRequest } from '../web-types';
import { braiinsRpc } from './braiins';
import { stockPools, stockStatsOld, stockSummary } from './antminer-stock';
import { CGMINER_COMMANDS, errorReply, invalidCommand, round2, statusArray, whenSec, type CgFamilyHandler, type JsonObject, type RpcRequest } from './cgminer-common';
import type { SimMiner } from './sim-miner';

/**
 * LuxOS (LUXminer) on Antminer hardware (miner-protocols.md §5): CGMiner JSON API on 4028 with `Description`
 * "LUXminer <version>", stock-style flat `stats`, GH/s summary, and session-guarded configuration commands
 * (`logon` → SessionID as the first parameter element; one session at a time, Code 402; 60 s idle expiry).
 */

const SESSION_IDLE_MS = 60_000;
/** Commands that need a session (Luxor's api.json `logon_required`, the ones this simulator implements). */
const NEEDS_SESSION = new Set(['curtail', 'rebootdevice', 'ledset', 'profileset', 'fanset', 'resetconfig', 'resetminer', 'atmset', 'logoff']);
const EXTRA = new Set([
  'session', 'logon', 'logoff', 'config', 'fans', 'temps', 'power', 'profiles', 'tempctrl', 'atm', 'events',
  ...NEEDS_SESSION,
]);

interface LuxState {
  session: { id: string; lastUse: number } | null;
  profile: string;
  minFans: number;
  redLed: 'off' | 'on' | 'blink';
  seq: number;
}
const states = new WeakMap<SimMiner, LuxState>();
function stateOf(m: SimMiner): LuxState {
  let s = states.get(m);
  if (!s) {
    s = { session: null, profile: 'default', minFans: m.model.fans, redLed: 'off', seq: 0 };
    states.set(m, s);
  }
  return s;
}

function description(m: SimMiner): string {
  return `LUXminer ${m.firmware.version}`;
}

function ok(m: SimMiner, when: number, code: number, msg: string): JsonObject[] {
  return statusArray('S', when, code, msg, description(m));
}

/** Profiles of this unit: stock frequency ('default'), one step down and one up (`<MHz>MHz`, §5.2). */
export function luxProfiles(m: SimMiner): Array<{ name: string; freq: number; mode: SimMiner['workMode'] }> {
  const f = m.model.freqMhz;
  return [
    { name: `${Math.round(f * 0.8)}MHz`, freq: Math.round(f * 0.8), mode: 'low-power' },
    { name: 'default', freq: f, mode: 'normal' },
    { name: `${Math.round(f * 1.08)}MHz`, freq: Math.round(f * 1.08), mode: 'high' },
  ];
}

/** Re-labels a reply built by a shared builder with LuxOS's status description (and optional Msg). */
function relabel(m: SimMiner, reply: JsonObject, msg?: string): JsonObject {
  const st = Array.isArray(reply.STATUS) ? (reply.STATUS as JsonObject[]) : [];
  return { ...reply, STATUS: st.map((s) => ({ ...s, Description: description(m), ...(msg ? { Msg: msg } : {}) })) };
}

function params(req: RpcRequest): string[] {
  return (req.parameter ?? '').split(',').map((s) => s.trim());
}

function sessionError(m: SimMiner, when: number): JsonObject {
  // the reference names no code for a missing/expired session id; this simulator answers E 401
  return errorReply(when, 401, 'Invalid session id', description(m));
}

export const luxosRpc: CgFamilyHandler = {
  description,
  single(m: SimMiner, req: RpcRequest, now: number) {
    const when = whenSec(now);
    const cmd = req.command;
    if (!CGMINER_COMMANDS.has(cmd) && !EXTRA.has(cmd)) return { reply: invalidCommand(when, description(m)) };
    const st = stateOf(m);
    if (st.session && now - st.session.lastUse > SESSION_IDLE_MS) st.session = null;
    const p = params(req);
    if (NEEDS_SESSION.has(cmd)) {
      if (!st.session || p[0] !== st.session.id) return { reply: sessionError(m, when) };
      st.session.lastUse = now;
    }
    const boards = m.boards;
    switch (cmd) {
      case 'version':
        return {
          reply: {
            STATUS: ok(m, when, 22, 'LUXminer versions'),
            VERSION: [{ LUXminer: m.firmware.version, API: '3.7', Miner: m.firmware.version, CompileTime: m.firmware.compileTime, Type: m.model.reportedName }],
            id: 1,
          },
        };
      case 'summary': {
        const r = relabel(m, stockSummary(m, when));
        const s = ((r.SUMMARY as JsonObject[])[0] ?? {}) as JsonObject;
        const rate = round2(m.hashrateGhs);
        (r.SUMMARY as JsonObject[])[0] = { ...s, 'GHS 1m': rate, 'GHS 5m': s['GHS 30m'], 'GHS 15m': s['GHS 30m'], 'GHS 24h': s['GHS av'] };
        return { reply: r };
      }
      case 'pools': {
        const r = relabel(m, stockPools(m, when));
        const pools = (r.POOLS as JsonObject[]).filter((x) => x.URL !== '');
        return { reply: { ...r, STATUS: ok(m, when, 7, `${pools.length} Pool(s)`), POOLS: pools } };
      }
      case 'stats': case 'estats':
        return { reply: relabel(m, stockStatsOld(m, when), 'LUXminer stats') };
      case 'devs': case 'edevs':
        return {
          reply: {
            STATUS: ok(m, when, 9, `${boards.length} ASC(s)`),
            DEVS: boards.map((b) => ({
              ASC: b.index, Name: 'BTM', ID: b.index, Enabled: 'Y', Status: b.present ? 'Alive' : 'Dead', Temperature: b.tempPcb[2] ?? 0,
              'MHS 5s': round2(b.rateGhs * 1000), 'MHS av': round2(b.rateGhs * 1000), 'Nominal MHS': round2(b.idealGhs * 1000),
              Profile: st.profile, SerialNumber: b.sn, Connector: `J${b.index + 7}`, IsRamping: false, IsUserShutdown: false,
            })),
            id: 1,
          },
        };
      case 'devdetails':
        return { reply: { STATUS: ok(m, when, 69, 'Device Details'), DEVDETAILS: boards.map((b) => ({ DEVDETAILS: b.index, Name: 'BTM', ID: b.index, Driver: 'luxminer', Kernel: '', Model: m.model.reportedName, Chips: b.chips })), id: 1 } };
      case 'config':
        return {
          reply: {
            STATUS: ok(m, when, 33, 'LUXminer config'),
            CONFIG: [{
              MACAddr: m.mac.toLowerCase(), Hostname: m.network.hostname, IPAddr: m.ip, Model: m.model.reportedName, SerialNumber: m.sn,
              Profile: st.profile, ProfileStep: 0, RedLed: m.blink ? (st.redLed === 'off' ? 'blink' : st.redLed) : 'off', GreenLed: 'auto',
              CurtailMode: m.workMode === 'sleep' ? 'Sleep' : 'None', IsAtmEnabled: false, IsTuning: false, IsPowerSupplyOn: true,
              NameplateTHS: round2(m.model.idealGhs / 1000), PSULabel: 'APW12', SystemStatus: m.mining ? 'Mining' : 'Curtailed',
              'Pool Count': m.pools.filter((x) => x.url).length, Strategy: 'Failover',
            }],
            id: 1,
          },
        };
      case 'fans':
        return {
          reply: {
            STATUS: ok(m, when, 202, `${m.model.fans} Fan(s)`),
            FANCTRL: [{ MinFans: st.minFans, PowerOffSpeed: 20 }],
            FANS: m.fans.map((f) => ({ FAN: `FAN${f.index + 1}`, ID: f.index, RPM: f.rpm, Speed: m.fanCtrl ? m.fanPwm : Math.round((f.rpm / 6500) * 100) })),
            id: 1,
          },
        };
      case 'tempctrl':
        return { reply: { STATUS: ok(m, when, 200, 'Temperature control'), TEMPCTRL: [{ Mode: m.fanCtrl ? 'Manual' : 'Auto', Target: 75, Hot: 90, Dangerous: 100 }], id: 1 } };
      case 'temps':
        return {
          reply: {
            STATUS: ok(m, when, 201, `${boards.length} Temp(s)`),
            TEMPS: boards.map((b) => ({ ID: b.index, TEMP: 0, TopLeft: b.tempPcb[0] ?? 0, TopRight: b.tempPcb[1] ?? 0, BottomLeft: b.tempPcb[2] ?? 0, BottomRight: b.tempPcb[3] ?? 0 })),
            id: 1,
          },
        };
      case 'power':
        return { reply: { STATUS: ok(m, when, 311, 'Power usage'), POWER: [{ PSU: false, Watts: m.powerW }], id: 1 } };
      case 'profiles':
        return {
          reply: {
            STATUS: ok(m, when, 0, 'Profiles'),
            PROFILES: luxProfiles(m).map((x, i) => ({ 'Profile Name': x.name, Frequency: x.freq, Voltage: 13.2, Hashrate: round2((m.model.idealGhs / 1000) * (x.freq / m.model.freqMhz)), Watts: Math.round(m.model.powerW * (x.freq / m.model.freqMhz)), Step: i - 1, IsTuned: false, IsDynamic: false })),
            id: 1,
          },
        };
      case 'atm':
        return { reply: { STATUS: ok(m, when, 339, 'ATM values'), ATM: [{ Enabled: false, MaxProfile: luxProfiles(m)[2]!.name, MinProfile: '', PostRampMinutes: 1, StartupMinutes: 1, TempWindow: 3.0 }], id: 1 } };
      case 'events':
        return { reply: { STATUS: ok(m, when, 357, 'Miner Events'), EVENTS: [], id: 1 } };
      case 'session':
        return { reply: { SESSION: [{ SessionID: st.session?.id ?? '' }], STATUS: ok(m, when, 319, 'Session information'), id: 1 } };
      case 'logon': {
        if (st.session) return { reply: { STATUS: statusArray('E', when, 402, 'Another session is active', description(m)), id: 1 } };
        st.seq++;
        const id = `${(m.index * 7919 + st.seq * 104729 + now).toString(36).slice(-8)}`.padStart(8, 'x');
        st.session = { id, lastUse: now };
        return { reply: { SESSION: [{ SessionID: id }], STATUS: ok(m, when, 316, 'Session created'), id: 1 } };
      }
      case 'logoff':
        st.session = null;
        return { reply: { STATUS: ok(m, when, 317, 'Session terminated'), id: 1 } };
      case 'curtail': {
        const action = p[1];
        if (action === 'sleep') {
          m.setWorkMode('sleep');
          return { reply: { CURTAIL: [{ Action: 'sleep mode' }], STATUS: ok(m, when, 335, 'Curtailment command sent'), id: 1 } };
        }
        if (action === 'wakeup') {
          const prof = luxProfiles(m).find((x) => x.name === st.profile);
          m.setWorkMode(prof?.mode ?? 'normal');
          return { reply: { CURTAIL: [{ Action: 'wake up' }], STATUS: ok(m, when, 335, 'Curtailment command sent'), id: 1 } };
        }
        return { reply: errorReply(when, 336, `Invalid curtail action '${action ?? ''}'`, description(m)) };
      }
      case 'profileset': {
        const prof = luxProfiles(m).find((x) => x.name === p[1]);
        if (!prof) return { reply: errorReply(when, 322, `Invalid profile '${p[1] ?? ''}'`, description(m)) };
        st.profile = prof.name;
        if (m.workMode !== 'sleep') m.setWorkMode(prof.mode);
        return { reply: { PROFILE: boards.map((b) => ({ Board: b.index, FrequencyStep: 5, Profile: prof.name, VoltageStep: 0.05 })), STATUS: ok(m, when, 321, 'Profile Set'), id: 1 }, after: () => m.restartProcess() };
      }
      case 'ledset': {
        const [, color, state] = p;
        if (color !== 'red' && color !== 'green') return { reply: errorReply(when, 331, `Invalid LED color '${color ?? ''}'`, description(m)) };
        if (state !== 'on' && state !== 'off' && state !== 'blink') return { reply: errorReply(when, 331, `Invalid LED state '${state ?? ''}'`, description(m)) };
        if (color === 'red') {
          st.redLed = state;
          m.blink = state !== 'off';
        }
        return { reply: { LED: [{ Color: color, State: state }], STATUS: ok(m, when, 332, 'LED set'), id: 1 } };
      }
      case 'fanset': {
        const kv = new Map(p.slice(1).map((x) => x.split('=') as [string, string | undefined]));
        const speed = Number(kv.get('speed'));
        const minFans = kv.has('min_fans') ? Number(kv.get('min_fans')) : st.minFans;
        if (!Number.isInteger(speed) || speed < -1 || speed > 100 || !Number.isInteger(minFans) || minFans < 0) return { reply: errorReply(when, 334, 'Invalid fan settings', description(m)) };
        st.minFans = minFans;
        m.fanCtrl = speed >= 0;
        m.fanPwm = speed >= 0 ? speed : 100;
        return { reply: { FANSET: [{ Speed: speed, MinFans: minFans }], STATUS: ok(m, when, 333, 'Fan settings updated'), id: 1 } };
      }
      case 'resetconfig':
        return {
          reply: { STATUS: ok(m, when, 341, 'Configuration reset'), id: 1 },
          after: () => {
            st.profile = 'default';
            st.minFans = m.model.fans;
            st.redLed = 'off';
            m.factoryReset();
          },
        };
      case 'rebootdevice':
        return { reply: { STATUS: ok(m, when, 342, 'Rebooting device'), id: 1 }, after: () => m.reboot() };
      case 'resetminer':
        return { reply: { STATUS: ok(m, when, 343, 'Miner restarting'), id: 1 }, after: () => m.restartProcess() };
      case 'atmset':
        return { reply: { STATUS: ok(m, when, 340, 'ATM set'), id: 1 } };
      case 'addpool': case 'removepool': case 'switchpool': case 'enablepool': case 'disablepool': {
        // cgminer pool commands, no session needed (§5.2); same rules as any cgminer
        const r = braiinsRpc.single(m, req, now);
        return { reply: relabel(m, r.reply), ...(r.after ? { after: r.after } : {}) };
      }
      default:
        return { reply: invalidCommand(when, description(m)) };
    }
  },
};

/** Web root: LuxOS's UI (identification looks for "Luxor Firmware", §5.1). */
export function luxosWeb(m: SimMiner, req: WebRequest): WebReply {
  if (req.path === '/' || req.path === '/index.html') {
    return textReply(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>LuxOS</title></head><body><div id="root">Luxor Firmware — ${m.network.hostname}</div></body></html>`, 200, 'text/html');
  }
  return textReply('Not Found', 404);
}

/** Drops a unit's LuxOS session state (tests). */
export function luxosSessionOf(m: SimMiner): string | null {
  return stateOf(m).session?.id ?? null;
}
