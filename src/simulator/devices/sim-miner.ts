import type { MinerModel } from '@shared/miner-models';
import { SSH_BY_DESIGN_FAMILIES } from '@shared/security-scan';
import { hashFloat } from '../rng';
import type { FaultKind, MinerState, NetQuirk, OfflineAnswer, SimEnv, SimFamily, SimPool, WorkMode } from '../sim-types';

/** Firmware identity of one unit. `date` (YYYYMMDD) drives capability rules (20240520, 202409, 2023-07 builds). */
export interface SimFirmware {
  version: string;
  compileTime: string;
  date: string;
  apiVersion: string;
}

export interface SimBoard {
  index: number;
  present: boolean;
  chips: number;
  expectedChips: number;
  /** one character per chip: `o` ok, `x` bad/missing */
  chipStatus: string;
  rateGhs: number;
  idealGhs: number;
  freqMhz: number;
  hwErrors: number;
  /** 4 sensors each: inlet, inlet, outlet, outlet (°C, integers; 0 = absent) */
  tempPcb: number[];
  tempChip: number[];
  tempPic: number[];
  sn: string;
}

export interface SimFan { index: number; rpm: number }

export interface SimNetwork {
  dhcp: boolean;
  ip: string;
  netmask: string;
  gateway: string;
  dns: string;
  hostname: string;
}

export interface SimMinerInit {
  index: number;
  ip: string;
  mac: string;
  sn: string;
  family: SimFamily;
  model: MinerModel;
  firmware: SimFirmware;
  pools: SimPool[];
  boardSns: string[];
  webUser: string;
  webPassword: string;
  bootAt: number;
  /** per-unit offset to ambient, °C */
  tempOffset: number;
  /** per-unit efficiency spread, ±3 % */
  rateSpread: number;
  whatsminerSalt: string;
}

const OK_STRINGS = new Map<number, string>();
function allOk(n: number): string {
  let s = OK_STRINGS.get(n);
  if (s === undefined) {
    s = 'o'.repeat(n);
    OK_STRINGS.set(n, s);
  }
  return s;
}

interface ActiveFault { since: number; until: number }

/**
 * One line of the unit's log, kept apart from how its firmware writes it: stock firmware prints the kernel log with a
 * date in front (SimMiner.logLines), VNish a busybox syslog with host, facility.level and program (devices/vnish.ts).
 */
export interface SimLogEntry {
  /** When it was written (ms). */
  at: number;
  text: string;
  /** The daemon that wrote it, as syslog names it ("dropbear[2211]"); none: the mining process. */
  proc?: string;
  /** Its syslog facility.level ("authpriv.warn"), when proc is set. */
  prio?: string;
}

/** The brute-forcing host of the `ssh-intrusion` fault (TEST-NET-3, never a real peer). */
export const SSH_INTRUDER = '203.0.113.45';
/** Failed root passwords the intruder's run shows before its login succeeds. */
export const SSH_INTRUSION_FAILS = 8;

const WARMUP_MAX_MS = 120_000;

/** The factory default pools/password, restored by reset_conf. */
interface FactoryState { pools: SimPool[]; webPassword: string }

/**
 * One simulated miner. Holds only compact state; every reading (boards, fans, hashrate) is computed on demand
 * from that state and the clock, so 20,000 of them stay cheap (no per-miner timers or sockets).
 */
export class SimMiner {
  readonly index: number;
  readonly ip: string;
  readonly mac: string;
  sn: string;
  readonly family: SimFamily;
  readonly model: MinerModel;
  firmware: SimFirmware;
  readonly web: { username: string; password: string };
  pools: SimPool[];
  workMode: WorkMode = 'normal';
  blink = false;
  quirk: NetQuirk = 'none';
  network: SimNetwork;
  /** Antminer fan control: automatic unless `fanCtrl`; `fanPwm` percent when manual */
  fanCtrl = false;
  fanPwm = 100;
  freqLevel = 100;
  /** Whatsminer: admin password for the v2 write API, API switch, power limit; v3 super password */
  whatsminer: { adminPassword: string; salt: string; apiSwitch: boolean; powerLimit: number; v3Password: string };
  bootAt: number;
  readonly boardSns: string[];
  /** The stock kernel log's lines, dated (get_kernel_log.cgi / log.cgi); log() writes them with logEntries. */
  readonly logLines: string[] = [];
  /** The log since boot, for firmware that formats it its own way (VNish syslog); at most 50 lines, as logLines. */
  readonly logEntries: SimLogEntry[] = [];

  private readonly env: SimEnv;
  private readonly faults = new Map<FaultKind, ActiveFault>();
  private darkUntil = 0;
  private heat: number;
  private rate30m: number;
  private rateAvg: number;
  private savedPools: SimPool[] | null = null;
  private readonly tempOffset: number;
  private readonly rateSpread: number;
  private readonly factory: FactoryState;
  /** Whatsminer v2 tokens issued by get_token: sign → expiry (ms) */
  readonly tokens = new Map<string, number>();

  constructor(init: SimMinerInit, env: SimEnv) {
    this.env = env;
    this.index = init.index;
    this.ip = init.ip;
    this.mac = init.mac;
    this.sn = init.sn;
    this.family = init.family;
    this.model = init.model;
    this.firmware = init.firmware;
    this.pools = init.pools.map((p) => ({ ...p }));
    this.boardSns = init.boardSns;
    this.web = { username: init.webUser, password: init.webPassword };
    this.bootAt = init.bootAt;
    this.tempOffset = init.tempOffset;
    this.rateSpread = init.rateSpread;
    this.whatsminer = { adminPassword: 'admin', salt: init.whatsminerSalt, apiSwitch: true, powerLimit: Math.round(init.model.powerW * 1.08), v3Password: 'super' };
    const [a = 0, b = 0, c = 0] = init.ip.split('.').map(Number);
    this.network = { dhcp: true, ip: init.ip, netmask: '255.255.0.0', gateway: `${a}.${b}.${c}.1`, dns: `${a}.${b}.${c}.1`, hostname: init.family === 'whatsminer' ? 'WhatsMiner' : 'Antminer' };
    this.heat = this.targetLoad();
    this.rate30m = this.heat;
    this.rateAvg = this.heat;
    this.factory = { pools: init.pools.map((p) => ({ ...p })), webPassword: init.webPassword };
  }

  // ---------------------------------------------------------------- state

  get state(): MinerState {
    if (this.faults.has('offline')) return 'offline';
    if (this.darkUntil > this.env.now()) return 'rebooting';
    return 'online';
  }

  /** Seconds since the mining process (re)started. */
  get elapsed(): number {
    return Math.max(0, Math.floor((this.env.now() - this.bootAt) / 1000));
  }

  hasFault(kind: FaultKind): boolean {
    return this.faults.has(kind);
  }

  /** When a fault began (ms), or undefined. */
  faultSince(kind: FaultKind): number | undefined {
    return this.faults.get(kind)?.since;
  }

  get activeFaults(): FaultKind[] {
    return [...this.faults.keys()];
  }

  /** This miner's offline answer (OfflineAnswer), else the fleet's (SimEnv.offlineAnswer). */
  offlineAnswer: OfflineAnswer | undefined = undefined;

  /** Offline, and nothing of it answers: a connection to it gets no reply at all (the caller's timeout ends it). */
  get silent(): boolean {
    return this.state === 'offline' && (this.offlineAnswer ?? this.env.offlineAnswer ?? 'reset') === 'silent';
  }

  /** Is the mining process (cgminer/bmminer/btminer API on 4028) up? */
  get apiUp(): boolean {
    return this.state === 'online' && !this.faults.has('cannot-start');
  }

  /**
   * Does the unit's SSH server (dropbear) answer? Stock firmware ships with it off; a hijacked unit
   * (`ssh-intrusion`) keeps it on, across reboots, until the fault is cleared (re-flashed). Braiins OS, VNish and
   * LuxOS ship with it on (SSH_BY_DESIGN_FAMILIES), hijacked or not.
   */
  get sshOpen(): boolean {
    return this.state === 'online' && (this.faults.has('ssh-intrusion') || SSH_BY_DESIGN_FAMILIES.includes(this.family));
  }

  /** Process is hashing (not sleeping, not broken). */
  get mining(): boolean {
    return this.apiUp && this.workMode !== 'sleep' && !this.faults.has('zero-hashrate');
  }

  // ---------------------------------------------------------------- control

  /** Turn a fault on (persistent until cleared, or until `untilMs` for random faults) or off. */
  injectFault(kind: FaultKind, on = true, untilMs = Number.POSITIVE_INFINITY): void {
    if (on) {
      const had = this.faults.has(kind);
      this.faults.set(kind, { since: this.faults.get(kind)?.since ?? this.env.now(), until: untilMs });
      if (had) return;
      if (kind === 'illegal-pool') this.hijackPools();
      if (kind === 'missing-chip') this.log(`Chain 0 only find ${this.model.chipsPerBoard - this.missingChipCount()} asic, will power off hash board 0`);
      if (kind === 'fan-failure') this.log('ERROR_FAN_LOST: fan 1 lost, please check fan');
      if (kind === 'high-temp') this.log('ERROR_TEMP_TOO_HIGH: chain 0 asic temp too high');
      if (kind === 'board-down') this.log(`load chain ${this.model.hashboards - 1} eeprom error, Data load fail for chain ${this.model.hashboards - 1}`);
      if (kind === 'ssh-intrusion') this.logIntrusion();
      return;
    }
    if (!this.faults.delete(kind)) return;
    if (kind === 'illegal-pool' && this.savedPools) {
      this.pools = this.savedPools;
      this.savedPools = null;
    }
    // power comes back: the unit boots from scratch
    if (kind === 'offline') this.restartProcess();
  }

  setQuirk(q: NetQuirk): void {
    this.quirk = q;
  }

  setPassword(password: string): void {
    this.web.password = password;
  }

  /** Set the unit serial (empty string or another unit's SN simulate the empty/duplicate SN labels). */
  setSerial(sn: string): void {
    this.sn = sn;
  }

  setWorkMode(mode: WorkMode): void {
    if (this.workMode === mode) return;
    this.workMode = mode;
    this.log(`work mode set to ${mode}`);
  }

  setPools(pools: Array<{ url: string; user: string; password?: string }>): void {
    const next: SimPool[] = [0, 1, 2].map((i) => {
      const p = pools[i];
      return p && p.url ? { url: p.url, user: p.user, password: p.password ?? 'x', status: 'Alive' } : { url: '', user: '', password: '', status: 'Dead' };
    });
    if (this.faults.has('illegal-pool')) {
      // the hijacker keeps slot 0; the operator's other slots are stored for when the fault clears
      this.savedPools = next;
      const hijacked = this.pools[0];
      if (hijacked) next.splice(0, 1, hijacked);
      this.pools = next.map((p) => ({ ...p }));
      return;
    }
    this.pools = next;
  }

  /** Reboot: unreachable for `rebootDarkMs` (plus `extraMs`), then the process starts again with elapsed 0. */
  reboot(extraMs = 0): void {
    const now = this.env.now();
    this.darkUntil = now + this.env.rebootDarkMs + extraMs;
    this.bootAt = this.darkUntil;
    this.heat = 0;
    this.rate30m = 0;
    this.rateAvg = 0;
    this.tokens.clear();
    // the kernel log starts again with the boot
    this.logLines.length = 0;
    this.logEntries.length = 0;
    this.log('system reboot requested');
  }

  /** Mining process restart (config change): elapsed resets, no dark period. */
  restartProcess(): void {
    this.bootAt = this.env.now();
    this.rate30m = 0;
    this.rateAvg = 0;
  }

  factoryReset(): void {
    this.pools = this.factory.pools.map((p) => ({ ...p }));
    this.web.password = this.factory.webPassword;
    this.workMode = 'normal';
    this.fanCtrl = false;
    this.fanPwm = 100;
    this.freqLevel = 100;
    this.blink = false;
    this.whatsminer.adminPassword = 'admin';
    this.network = { ...this.network, dhcp: true, ip: this.ip };
    this.restartProcess();
    this.log('configuration reset to factory defaults');
  }

  /** Firmware upgrade: new version/date, then a reboot. */
  upgradeFirmware(fw: SimFirmware): void {
    this.firmware = fw;
    this.reboot(0);
    // after the reboot: the new boot's log says what it runs
    this.log(`upgrade firmware to ${fw.version}`);
  }

  /** Adds a line to the log; `from` names the daemon that wrote it when that is not the mining process. */
  log(line: string, atMs = this.env.now(), from?: { proc: string; prio: string }): void {
    const d = new Date(atMs).toISOString().replace('T', ' ').slice(0, 19);
    this.logLines.push(`${d} ${from ? `${from.proc}: ` : ''}${line}`);
    if (this.logLines.length > 50) this.logLines.splice(0, this.logLines.length - 50);
    this.logEntries.push(from ? { at: atMs, text: line, ...from } : { at: atMs, text: line });
    if (this.logEntries.length > 50) this.logEntries.splice(0, this.logEntries.length - 50);
  }

  /** Advance smoothed values; called by the fleet's single tick loop. O(1). */
  tick(now: number, dtMs: number): void {
    for (const [kind, f] of this.faults) if (f.until <= now) this.injectFault(kind, false);
    const target = this.state === 'online' ? this.targetLoad() : 0;
    const kHeat = 1 - Math.exp(-dtMs / 60_000);
    this.heat += (target - this.heat) * kHeat;
    const k30 = 1 - Math.exp(-dtMs / 1_800_000);
    this.rate30m += (target - this.rate30m) * k30;
    const el = Math.max(1, (now - this.bootAt) / 1000);
    this.rateAvg += (target - this.rateAvg) * Math.min(1, dtMs / 1000 / el);
  }

  // ---------------------------------------------------------------- readings

  /** Work-mode hashrate factor. */
  modeFactor(): number {
    switch (this.workMode) {
      case 'sleep': return 0;
      case 'low-power': return 0.7;
      case 'high': return 1.1;
      default: return 1;
    }
  }

  private missingChipCount(): number {
    return 3 + (this.index % 6);
  }

  private downBoard(): number {
    return this.model.hashboards - 1;
  }

  private targetLoad(): number {
    if (!this.mining) return 0;
    let f = this.modeFactor() * (this.freqLevel / 100);
    if (this.faults.has('high-temp')) f *= 0.85;
    return f;
  }

  private warmup(now: number): number {
    const warm = Math.min(WARMUP_MAX_MS, this.env.rebootDarkMs);
    if (warm <= 0) return 1;
    return Math.max(0, Math.min(1, (now - this.bootAt) / warm));
  }

  /** Current per-board state (computed). */
  get boards(): SimBoard[] {
    const now = this.env.now();
    const m = this.model;
    const bucket = Math.floor(now / 5000);
    const perBoardIdeal = m.idealGhs / m.hashboards;
    const load = this.mining ? this.targetLoad() * this.warmup(now) : 0;
    const ambient = this.env.ambientC() + this.tempOffset;
    const hydro = m.cooling === 'hydro';
    const out: SimBoard[] = [];
    for (let i = 0; i < m.hashboards; i++) {
      const present = this.apiUp && !(this.faults.has('board-down') && i === this.downBoard());
      const missing = this.faults.has('missing-chip') && i === 0 ? this.missingChipCount() : 0;
      const chips = present ? m.chipsPerBoard - missing : 0;
      let chipStatus = '';
      if (present) {
        chipStatus = allOk(m.chipsPerBoard);
        if (missing > 0) {
          const chars = chipStatus.split('');
          for (let k = 0; k < missing; k++) chars[(k * 17 + 5) % m.chipsPerBoard] = 'x';
          chipStatus = chars.join('');
        }
      }
      const noise = (hashFloat(this.env.seed, this.index, i, bucket) - 0.5) * 0.03;
      const rate = present && load > 0 ? perBoardIdeal * load * (chips / m.chipsPerBoard) * (1 + this.rateSpread + noise) : 0;
      const h = present ? this.heat : 0;
      const tNoise = Math.round((hashFloat(this.env.seed, this.index, i, bucket, 7) - 0.5) * 2);
      const over = this.faults.has('high-temp') && present ? 24 : 0;
      const rise = hydro ? 18 : 26;
      const inlet = Math.round(ambient + (hydro ? 12 : 3) + rise * 0.6 * h + i + tNoise + over);
      const outlet = Math.round(inlet + (hydro ? 6 : 14) * h + over * 0.3);
      const chipDelta = Math.round(5 + 10 * h);
      const pcb = present ? [inlet, inlet - 1, outlet, outlet + 1] : [0, 0, 0, 0];
      const chip = present ? pcb.map((t) => t + chipDelta) : [0, 0, 0, 0];
      const pic = present ? pcb.map((t) => t - 10) : [0, 0, 0, 0];
      const elapsed = this.elapsed;
      out.push({
        index: i, present, chips, expectedChips: m.chipsPerBoard, chipStatus,
        rateGhs: Math.round(rate * 100) / 100, idealGhs: Math.round(perBoardIdeal * 100) / 100,
        freqMhz: present ? Math.round(m.freqMhz * (this.freqLevel / 100) * (this.workMode === 'low-power' ? 0.8 : this.workMode === 'high' ? 1.08 : 1)) : 0,
        hwErrors: present && load > 0 ? Math.floor(elapsed / 400) + ((this.index + i) % 50) : 0,
        tempPcb: pcb, tempChip: chip, tempPic: pic, sn: this.boardSns[i] ?? '',
      });
    }
    return out;
  }

  get fans(): SimFan[] {
    const m = this.model;
    const now = this.env.now();
    const bucket = Math.floor(now / 5000);
    const up = this.state === 'online';
    const out: SimFan[] = [];
    const whats = this.family === 'whatsminer';
    const maxRpm = whats ? 7000 : 6500;
    for (let i = 0; i < m.fans; i++) {
      let rpm = 0;
      if (up) {
        if (this.workMode === 'sleep' || !this.apiUp) rpm = 1000 + (i * 40);
        else if (this.fanCtrl) rpm = Math.round(maxRpm * (this.fanPwm / 100));
        else rpm = Math.round((2900 + 3000 * this.heat + (this.faults.has('high-temp') ? 600 : 0)) / 10) * 10;
        rpm += Math.round((hashFloat(this.env.seed, this.index, i, bucket, 3) - 0.5) * 120);
        if (this.faults.has('fan-failure') && i === 0) rpm = 0;
      }
      out.push({ index: i, rpm: Math.max(0, Math.min(maxRpm, rpm)) });
    }
    return out;
  }

  /** Instant hashrate (GH/s), sum of boards. */
  get hashrateGhs(): number {
    return this.boards.reduce((s, b) => s + b.rateGhs, 0);
  }

  /** Smoothed averages (GH/s) for `GHS av` / `rate_30m`. */
  get averages(): { av: number; m30: number } {
    const boardsUp = this.boards.filter((b) => b.present).length / this.model.hashboards;
    const chipsF = this.faults.has('missing-chip') ? 1 - this.missingChipCount() / (this.model.chipsPerBoard * this.model.hashboards) : 1;
    const base = this.model.idealGhs * (1 + this.rateSpread) * boardsUp * chipsF;
    return { av: Math.round(base * this.rateAvg * 100) / 100, m30: Math.round(base * this.rate30m * 100) / 100 };
  }

  get powerW(): number {
    if (this.state !== 'online') return 0;
    if (!this.mining) return 60;
    return Math.round(this.model.powerW * (0.08 + 0.92 * Math.min(1.2, this.heat * (this.workMode === 'low-power' ? 0.9 : 1))));
  }

  /** Index of the pool currently mined on (first alive one), or -1. */
  get activePool(): number {
    return this.pools.findIndex((p) => p.url !== '' && p.status === 'Alive');
  }

  /** Shares since start, deterministic from elapsed. */
  shares(): { accepted: number; rejected: number; stale: number } {
    const el = this.mining ? this.elapsed : 0;
    return { accepted: Math.floor(el / 12), rejected: Math.floor(el / 5000), stale: Math.floor(el / 40000) };
  }

  snapshot(): Record<string, unknown> {
    const boards = this.boards;
    const av = this.averages;
    return {
      index: this.index,
      ip: this.ip,
      mac: this.mac,
      sn: this.sn,
      family: this.family,
      make: this.model.make,
      model: this.model.reportedName,
      modelId: this.model.id,
      firmware: { ...this.firmware },
      web: { ...this.web },
      pools: this.pools.map((p) => ({ ...p })),
      activePool: this.activePool,
      workMode: this.workMode,
      blink: this.blink,
      state: this.state,
      faults: this.activeFaults,
      sshOpen: this.sshOpen,
      quirk: this.quirk,
      elapsed: this.elapsed,
      hashrateGhs: Math.round(boards.reduce((s, b) => s + b.rateGhs, 0) * 100) / 100,
      hashrateAvgGhs: av.av,
      hashrate30mGhs: av.m30,
      idealGhs: this.model.idealGhs,
      powerW: this.powerW,
      boards,
      fans: this.fans,
      network: { ...this.network },
      fanCtrl: this.fanCtrl,
      fanPwm: this.fanPwm,
      freqLevel: this.freqLevel,
    };
  }

  /**
   * What dropbear logs for a password brute force that got in: SSH_INTRUSION_FAILS bad root passwords from
   * SSH_INTRUDER over the last minutes, three per connection (one dropbear process each, the client hanging up
   * after its third), then the login on the last connection. dropbear logs to syslog's authpriv facility, a bad
   * password as a warning, a login as a notice and the rest as info (what a syslog shows in its facility.level).
   */
  private logIntrusion(): void {
    const steps = SSH_INTRUSION_FAILS + 1;
    let at = this.env.now() - steps * 7000;
    for (let conn = 0; conn * 3 < steps; conn++) {
      const proc = `dropbear[${1800 + Math.floor(hashFloat(this.env.seed, this.index, 91, conn) * 6000)}]`;
      const peer = `${SSH_INTRUDER}:${40000 + Math.floor(hashFloat(this.env.seed, this.index, 92, conn) * 20000)}`;
      this.log(`Child connection from ${peer}`, at, { proc, prio: 'authpriv.info' });
      for (let k = conn * 3; k < Math.min(steps, conn * 3 + 3); k++) {
        at += 7000;
        if (k < SSH_INTRUSION_FAILS) this.log(`Bad password attempt for 'root' from ${peer}`, at, { proc, prio: 'authpriv.warn' });
        else this.log(`Password auth succeeded for 'root' from ${peer}`, at, { proc, prio: 'authpriv.notice' });
      }
      if (conn * 3 + 3 < steps) this.log(`Exit before auth from <${peer}>: Exited normally`, at + 1000, { proc, prio: 'authpriv.info' });
    }
  }

  private hijackPools(): void {
    this.savedPools = this.pools.map((p) => ({ ...p }));
    const first = this.pools[0];
    const worker = first?.user.split('.')[1] ?? `w${this.index}`;
    this.pools = [
      { url: 'stratum+tcp://btc.unlisted-pool.net:3333', user: `hijack77.${worker}`, password: 'x', status: 'Alive' },
      ...this.pools.slice(1).map((p) => ({ ...p })),
    ];
  }
}
