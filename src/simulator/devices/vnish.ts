import type { SimEnv, WorkMode } from '../sim-types';
import { checkWebToken, issueWebToken, tokenFromHeaders } from '../web-token';
import { jsonReply, parseJsonBody, textReply, type WebReply, type WebRequest } from '../web-types';
import {
  CGMINER_COMMANDS, accessDenied, hms, round2, statusArray, whenSec, type CgFamilyHandler, type JsonObject, type RpcRequest,
} from './cgminer-common';
import { firmwareFromUpload } from './firmware-catalogue';
import type { SimMiner } from './sim-miner';

/** VNish (AnthillOS) on Antminer hardware: CGMiner API on 4028 (§6.3) and web `/api/v1` on 80 (§6.2). */

const DESCRIPTION = 'cgminer 4.11.1';
const READS = new Set(['summary', 'pools', 'stats', 'devs', 'devdetails', 'estats', 'edevs']);
const DEVFEE_PERCENT = 2.81;
const TOKEN_TTL_MS = 3600_000;

function typeString(m: SimMiner): string {
  return `${m.model.reportedName} (Vnish ${m.firmware.version})`;
}

/** Autotune presets (W); the lowest is the simulator's low-power mode, the default is normal. */
function presets(m: SimMiner): { low: string; normal: string; high: string } {
  const p = m.model.powerW;
  return { low: String(Math.round((p * 0.75) / 10) * 10), normal: String(Math.round(p / 10) * 10), high: String(Math.round((p * 1.1) / 10) * 10) };
}

function presetOf(m: SimMiner): string {
  const p = presets(m);
  return m.workMode === 'low-power' ? p.low : m.workMode === 'high' ? p.high : p.normal;
}

function minerState(m: SimMiner): string {
  if (!m.apiUp) return 'failure';
  if (m.workMode === 'sleep') return 'stopped';
  return 'mining';
}

export const vnishRpc: CgFamilyHandler = {
  description: () => DESCRIPTION,
  single(m: SimMiner, req: RpcRequest, now: number) {
    const when = whenSec(now);
    const cmd = req.command;
    if (cmd === 'version' || !CGMINER_COMMANDS.has(cmd)) {
      // §1.6: VNish answers `version` with Code 0 "Invalid command" and no id
      return { reply: { STATUS: [{ STATUS: 'E', When: when, Code: 0, Msg: 'Invalid command', Description: DESCRIPTION }] } };
    }
    if (!READS.has(cmd)) return { reply: accessDenied(when, cmd, DESCRIPTION) };
    const boards = m.boards;
    const fans = m.fans;
    const sh = m.shares();
    const av = m.averages;
    switch (cmd) {
      case 'summary':
        return {
          reply: {
            STATUS: statusArray('S', when, 11, 'Summary', DESCRIPTION),
            SUMMARY: [{
              Elapsed: m.elapsed, 'GHS 5s': round2(m.hashrateGhs), 'GHS av': av.av, 'GHS 30m': av.m30, 'Found Blocks': 0, Getworks: Math.floor(m.elapsed / 30),
              Accepted: sh.accepted, Rejected: sh.rejected, 'Hardware Errors': boards.reduce((s, b) => s + b.hwErrors, 0), Utility: 0, Discarded: 0,
              Stale: sh.stale, 'Get Failures': 0, 'Local Work': 0, 'Remote Failures': 0, 'Network Blocks': 0, 'Total MH': 0, 'Work Utility': 0,
              'Difficulty Accepted': sh.accepted * 262144, 'Difficulty Rejected': 0, 'Difficulty Stale': 0, 'Best Share': 169988423,
              'Device Hardware%': 0, 'Device Rejected%': 0, 'Pool Rejected%': 0, 'Pool Stale%': 0, 'Last getwork': when, 'Fee Percent': DEVFEE_PERCENT,
            }],
          },
        };
      case 'pools': {
        const active = m.activePool;
        const user = m.pools.map((p, i) => ({ p, i })).filter(({ p }) => p.url !== '').map(({ p, i }) => {
          const on = i === active && m.mining;
          return {
            POOL: i, URL: p.url, Status: p.status, Priority: i, Quota: 1, 'Long Poll': 'N', Getworks: 0, Accepted: on ? sh.accepted : 0,
            Rejected: on ? sh.rejected : 0, Discarded: 0, Stale: 0, 'Get Failures': 0, 'Remote Failures': 0, User: p.user,
            'Last Share Time': on ? hms(4) : '0', 'Stratum Active': on, 'Has Stratum': true, 'Has Vmask': true, Type: 0, 'Pool Stale%%': 0, 'Pool Rejected%': 0,
          };
        });
        const fee = { POOL: m.pools.length, URL: 'DevFee', Status: 'Alive', Priority: 99, Quota: 1, 'Long Poll': 'N', Getworks: 0, Accepted: Math.floor(sh.accepted * 0.03), Rejected: 0, Discarded: 0, Stale: 0, 'Get Failures': 0, 'Remote Failures': 0, User: 'DevFee', 'Last Share Time': hms(13), 'Stratum Active': m.mining, 'Has Stratum': true, 'Has Vmask': true, Type: 1, 'Pool Stale%%': 0, 'Pool Rejected%': 0 };
        return { reply: { STATUS: statusArray('S', when, 7, `${user.length + 1} Pool(s)`, DESCRIPTION), POOLS: [...user, fee] } };
      }
      case 'devdetails':
        return { reply: { STATUS: statusArray('S', when, 69, 'Device Details', DESCRIPTION), DEVDETAILS: [{ DEVDETAILS: 0, Name: 'BTM_S21PRO', ID: 0, Driver: 'bitmain_s21pro_drv', Kernel: '', Model: '', 'Device Path': '' }], id: 1 } };
      case 'devs': case 'edevs':
        return { reply: { STATUS: statusArray('S', when, 9, '1 ASC(s)', DESCRIPTION), DEVS: [{ ASC: 0, Name: 'BTM_S21PRO', ID: 0, Enabled: 'Y', Status: 'Alive', Temperature: 0, 'MHS av': 0, 'MHS 5s': 0, Accepted: sh.accepted, Rejected: sh.rejected, 'Device Elapsed': m.elapsed }], id: 1 } };
      default: {
        const flat: JsonObject = { STATS: 0, ID: 'BTM_SOC0', Elapsed: m.elapsed, 'GHS 5s': round2(m.hashrateGhs).toFixed(2), 'GHS av': av.av, rate_unit: 'GH', fan_num: m.model.fans, fan_mode: m.fanCtrl ? 'manual' : 'auto', fan_pwm: m.fanPwm };
        for (let i = 1; i <= 4; i++) flat[`fan${i}`] = fans[i - 1]?.rpm ?? 0;
        boards.forEach((b, k) => {
          const i = k + 1;
          flat[`temp${i}`] = b.present ? Math.max(...b.tempPcb) : 0;
          flat[`temp2_${i}`] = b.present ? Math.max(...b.tempChip) : 0;
          flat[`temp3_${i}`] = b.present ? Math.max(...b.tempChip) : 0;
          flat[`temp_sens${i}`] = b.present ? b.tempPic.join('-') : '0-0-0-0';
          flat[`temp_chip${i}`] = b.tempChip.join('-');
          flat[`temp_pcb${i}`] = b.tempPcb.join('-');
          flat[`chain_consumption${i}`] = b.present ? Math.round(m.powerW / boards.length) : 0;
          flat[`chain_hw${i}`] = b.hwErrors;
          flat[`chain_rateideal${i}`] = b.idealGhs;
          flat[`chain_rate${i}`] = b.rateGhs;
          flat[`freq_avg${i}`] = b.freqMhz;
          flat[`chain_vol${i}`] = b.present ? 13000 : 0;
          flat[`chain_acn${i}`] = b.chips;
          flat[`chain_state${i}`] = b.present ? (m.mining ? 'mining' : 'stopped') : 'failure';
          flat[`chain_fault${i}`] = b.present ? '' : 'chain not detected';
        });
        flat.state = minerState(m);
        flat.total_rate = round2(m.hashrateGhs);
        flat.total_rateideal = m.model.idealGhs;
        flat.total_acn = boards.reduce((s, b) => s + b.chips, 0);
        return {
          reply: {
            STATUS: statusArray('S', when, 70, 'CGMiner stats', DESCRIPTION),
            STATS: [{ Type: typeString(m), Miner: '0.0.0', Cgminer: m.firmware.version, CompileTime: m.firmware.compileTime }, flat],
            id: 1,
          },
        };
      }
    }
  },
};

// ------------------------------------------------------------------ web

function err(status: number, msg: string): WebReply {
  return jsonReply({ err: msg }, status);
}

function info(m: SimMiner): JsonObject {
  return {
    miner: m.model.reportedName, model: m.model.model.toLowerCase().replace(/\s+/g, ''), fw_name: 'Vnish', fw_version: m.firmware.version,
    build_uuid: '53a7f3d0-71ee-4c1e-b45e-50a6c2164dad', build_name: 'vnishus', platform: 'aml', install_type: 'nand', build_time: m.firmware.compileTime,
    algorithm: 'sha256d', hr_measure: 'GH/s',
    system: {
      os: 'GNU/Linux', miner_name: m.model.model.toLowerCase().replace(/\s+/g, ''), file_system_version: '', mem_total: 243704, mem_free: 175240,
      mem_free_percent: 71, mem_buf: 33936, mem_buf_percent: 13,
      network_status: { mac: m.mac, dhcp: m.network.dhcp, ip: m.ip, netmask: m.network.netmask, gateway: m.network.gateway, dns: [m.network.dns], hostname: m.network.hostname },
      uptime: `${Math.floor(m.elapsed / 3600)}:${String(Math.floor((m.elapsed % 3600) / 60)).padStart(2, '0')}`,
    },
    serial: m.sn || 'N/A',
  };
}

function summary(m: SimMiner): JsonObject {
  const boards = m.boards;
  const sh = m.shares();
  const av = m.averages;
  const pcb = boards.filter((b) => b.present).flatMap((b) => b.tempPcb);
  const chip = boards.filter((b) => b.present).flatMap((b) => b.tempChip);
  const mm = (a: number[]): JsonObject => ({ min: a.length ? Math.min(...a) : 0, max: a.length ? Math.max(...a) : 0 });
  return {
    miner: {
      miner_status: { miner_state: minerState(m), miner_state_time: m.elapsed }, miner_type: typeString(m), hr_stock: m.model.idealGhs,
      average_hashrate: round2(av.av / 1000), instant_hashrate: round2(m.hashrateGhs / 1000), hr_realtime: round2(m.hashrateGhs),
      hr_nominal: m.model.idealGhs, hr_average: av.av, pcb_temp: mm(pcb), chip_temp: mm(chip), power_consumption: m.powerW, power_usage: m.powerW,
      power_efficiency: m.hashrateGhs > 0 ? round2(m.powerW / (m.hashrateGhs / 1000)) : 0, hw_errors_percent: 0, hr_error: 0,
      hw_errors: boards.reduce((s, b) => s + b.hwErrors, 0), devfee_percent: DEVFEE_PERCENT, devfee: round2(m.hashrateGhs * 0.0281),
      pools: [
        ...m.pools.map((p, i) => ({ p, i })).filter(({ p }) => p.url).map(({ p, i }) => ({ id: i, url: p.url, pool_type: 'UserPool', user: p.user, status: i === m.activePool && m.mining ? 'active' : p.status === 'Alive' ? 'working' : 'offline', asic_boost: true, diff: '262K', accepted: i === m.activePool ? sh.accepted : 0, rejected: 0, stale: 0, ls_diff: 262144, ls_time: '0:00:04', diffa: 0, ping: 8 })),
        { id: m.pools.length, url: 'DevFee', pool_type: 'DevFee', user: 'DevFee', status: 'active', asic_boost: true, diff: '16.4K', accepted: 0, rejected: 0, stale: 0, ls_diff: 16384, ls_time: '0:00:13', diffa: 0, ping: 49 },
      ],
      cooling: { fan_num: m.model.fans, fans: m.fans.map((f) => ({ id: f.index, rpm: f.rpm, status: f.rpm > 0 ? 'ok' : 'lost', max_rpm: 6500 })), settings: { mode: { name: m.fanCtrl ? 'manual' : 'auto' } }, fan_duty: m.fanPwm },
      chains: boards.map((b) => ({
        id: b.index + 1, frequency: b.freqMhz, voltage: b.present ? 13000 : 0, power_consumption: b.present ? Math.round(m.powerW / boards.length) : 0,
        hashrate_ideal: b.idealGhs, hashrate_rt: b.rateGhs, hashrate_percentage: b.idealGhs ? round2((b.rateGhs / b.idealGhs) * 100) : 0, hr_error: 0,
        hw_errors: b.hwErrors, pcb_temp: mm(b.present ? b.tempPcb : []), chip_temp: mm(b.present ? b.tempChip : []),
        chip_statuses: { red: b.expectedChips - b.chips, orange: 0, grey: b.chips },
        status: b.present ? { state: m.mining ? 'mining' : 'stopped' } : { state: 'failure', description: 'Chain not detected' },
      })),
      found_blocks: 0, best_share: 169988423,
    },
  };
}

function settings(m: SimMiner): JsonObject {
  return {
    miner: {
      cooling: { mode: { name: m.fanCtrl ? 'manual' : 'auto', param: m.fanCtrl ? m.fanPwm : 65 }, fan_min_count: m.model.fans, fan_min_duty: 10, fan_max_duty: 100 },
      misc: { quiet_mode: false, remain_stopped_on_reboot: true },
      overclock: { modded_psu: false, preset: presetOf(m), globals: { volt: 1270, freq: m.model.freqMhz } },
      pools: m.pools.map((p) => ({ url: p.url, user: p.user, pass: p.password })),
    },
    network: { hostname: m.network.hostname, dhcp: m.network.dhcp },
  };
}

function applySettings(m: SimMiner, body: JsonObject): void {
  const net = body.network as JsonObject | undefined;
  if (net && typeof net.dhcp === 'boolean') {
    m.network = net.dhcp
      ? { ...m.network, dhcp: true, ip: m.ip }
      : { ...m.network, dhcp: false, ip: typeof net.ip === 'string' ? net.ip : m.network.ip, netmask: typeof net.netmask === 'string' ? net.netmask : m.network.netmask, gateway: typeof net.gateway === 'string' ? net.gateway : m.network.gateway };
  }
  if (net && typeof net.hostname === 'string' && net.hostname.trim() !== '') m.network = { ...m.network, hostname: net.hostname.trim() };
  const miner = (body.miner ?? {}) as JsonObject;
  if (Array.isArray(miner.pools)) {
    m.setPools((miner.pools as JsonObject[]).map((p) => ({ url: String(p.url ?? ''), user: String(p.user ?? ''), password: String(p.pass ?? '') })));
  }
  const oc = miner.overclock as JsonObject | undefined;
  if (oc && typeof oc.preset === 'string') {
    const p = presets(m);
    const mode: WorkMode = oc.preset === p.low ? 'low-power' : oc.preset === p.high ? 'high' : 'normal';
    if (m.workMode !== 'sleep') m.setWorkMode(mode);
  }
  const cooling = miner.cooling as JsonObject | undefined;
  const mode = cooling?.mode as JsonObject | undefined;
  if (mode && typeof mode.name === 'string') {
    m.fanCtrl = mode.name === 'manual' || mode.name === 'immers';
    if (typeof mode.param === 'number') m.fanPwm = mode.name === 'immers' ? 0 : Math.max(0, Math.min(100, mode.param));
  }
}

// ------------------------------------------------------------------ logs

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** busybox syslogd's time stamp, "Nov  8 12:00:01" (the day padded with a space); UTC here, a unit writes local time. */
function syslogTime(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
}

const isoTime = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/**
 * `GET /api/v1/logs/{status|miner|autotune|system|messages|api}` (§6.2: text, no auth). The reference names the logs
 * but not what they hold; the simulator assumes what the firmware's busybox userland writes. `messages` is syslogd's
 * file: the boot, then every daemon's lines as `<time> <host> <facility.level> <program[pid]>: <text>`, dropbear's
 * logins and failed passwords among them (authpriv). `miner` holds the mining process's lines; the others are a few
 * lines of status. All start again with a reboot (SimMiner.reboot empties the log). null: no such log.
 */
export function vnishLog(m: SimMiner, name: string): string | null {
  const entries = m.logEntries;
  const boot = Math.min(m.bootAt, entries[0]?.at ?? m.bootAt);
  const host = m.network.hostname;
  let lines: string[];
  switch (name) {
    case 'messages':
      lines = [
        `${syslogTime(boot)} ${host} syslog.info syslogd started: BusyBox v1.31.1`,
        `${syslogTime(boot)} ${host} kern.notice kernel: Linux version 4.9.113 (${m.firmware.compileTime})`,
        `${syslogTime(boot + 3000)} ${host} authpriv.info dropbear[312]: Running in background`,
        ...entries.filter((e) => e.proc).map((e) => `${syslogTime(e.at)} ${host} ${e.prio ?? 'daemon.info'} ${e.proc}: ${e.text}`),
      ];
      break;
    case 'miner':
      lines = [`[${isoTime(m.bootAt)}] ${typeString(m)} started`, ...entries.filter((e) => !e.proc).map((e) => `[${isoTime(e.at)}] ${e.text}`)];
      break;
    case 'system':
      lines = [`[${isoTime(boot)}] system: Vnish ${m.firmware.version} booted`, `[${isoTime(boot + 2000)}] network: eth0 ${m.network.ip} (${m.network.dhcp ? 'dhcp' : 'static'})`];
      break;
    case 'status':
      lines = [`[${isoTime(m.bootAt)}] miner state: ${minerState(m)}`];
      break;
    case 'autotune':
      lines = [`[${isoTime(m.bootAt)}] autotune: preset ${presetOf(m)} W, tuned`];
      break;
    case 'api':
      lines = [`[${isoTime(boot + 2000)}] api: listening on :80`];
      break;
    default:
      return null;
  }
  return `${lines.join('\n')}\n`;
}

export function vnishWeb(m: SimMiner, req: WebRequest, env: SimEnv): WebReply {
  const now = env.now();
  const path = req.path.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/index.html') {
    return textReply('<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="firmware" content="AnthillOS"><title>Firmware</title></head><body><div id="app"></div></body></html>', 200, 'text/html');
  }
  const authed = (): boolean => checkWebToken(env.secret, m.ip, m.web.password, now, tokenFromHeaders(req.headers));
  const body = (): JsonObject => parseJsonBody(req.body) ?? {};
  switch (path) {
    case '/api/v1/unlock': {
      if (req.method !== 'POST') return err(405, 'method not allowed');
      if (body().pw !== m.web.password) return err(403, 'wrong password');
      return jsonReply({ token: issueWebToken(env.secret, m.ip, m.web.password, now, TOKEN_TTL_MS) });
    }
    case '/api/v1/info': return jsonReply(info(m));
    case '/api/v1/model': return jsonReply({ model: m.model.model, chains: m.model.hashboards, chips_per_chain: m.model.chipsPerBoard, fans: m.model.fans });
    case '/api/v1/status':
      return jsonReply({ miner_state: minerState(m), miner_state_time: m.elapsed, find_miner: m.blink, restart_required: false, reboot_required: false, unlocked: authed() });
    case '/api/v1/summary': return jsonReply(summary(m));
    case '/api/v1/perf-summary': return jsonReply({ current_preset: { name: presetOf(m) }, preset_switcher: { enabled: false } });
    case '/api/v1/find-miner': {
      if (req.method !== 'POST') return err(405, 'method not allowed');
      const b = body();
      m.blink = typeof b.on === 'boolean' ? b.on : !m.blink;
      return jsonReply({ on: m.blink });
    }
    default:
      break;
  }
  if (path.startsWith('/api/v1/logs/')) {
    const text = vnishLog(m, path.slice('/api/v1/logs/'.length));
    return text === null ? err(404, 'not found') : textReply(text);
  }
  if (!path.startsWith('/api/v1/')) return err(404, 'not found');
  if (!authed()) return err(401, 'unauthorized');
  switch (path) {
    case '/api/v1/settings':
      if (req.method === 'POST') {
        applySettings(m, body());
        return jsonReply({ restart_required: false, reboot_required: false });
      }
      return jsonReply(settings(m));
    case '/api/v1/autotune/presets': {
      const p = presets(m);
      return jsonReply([p.low, p.normal, p.high].map((name) => ({ name, pretty: `${name} watt`, status: 'tuned', modded_psu_required: false })));
    }
    case '/api/v1/mining/stop': case '/api/v1/mining/pause': m.setWorkMode('sleep'); return jsonReply({ success: true });
    case '/api/v1/mining/start': case '/api/v1/mining/resume': m.setWorkMode('normal'); return jsonReply({ success: true });
    case '/api/v1/mining/restart': return { ...jsonReply({ success: true }), after: () => m.restartProcess() };
    case '/api/v1/system/reboot': return { ...jsonReply({ success: true }), after: () => m.reboot() };
    case '/api/v1/settings/factory-reset': return { ...jsonReply({ success: true }), after: () => m.factoryReset() };
    case '/api/v1/firmware/update': {
      const file = req.upload?.files[0];
      if (!file || file.size === 0) return err(400, 'no firmware file');
      const fw = firmwareFromUpload(m, file.filename, now);
      if (!fw) return err(409, 'firmware does not match the model');
      return { ...jsonReply({ success: true }), after: () => m.upgradeFirmware(fw) };
    }
    default:
      return err(404, 'not found');
  }
}
