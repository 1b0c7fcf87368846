import type { MinerErrorCode, MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { lookupModel } from './catalogue';
import { forEachLimit } from './concurrency';
import { antminerStockDriver } from './families/antminer-stock';
import { braiinsDriver } from './families/braiins';
import { luxosDriver } from './families/luxos';
import { vnishDriver } from './families/vnish';
import { whatsminerDriver } from './families/whatsminer';
import { detailDue, type DriverEnv, type FamilyDriver, type IdentifiedMiner, type MinerHandle, type MinerReading } from './miner-types';
import { offlineReason, withOfflineReason } from './offline-reason';
import type { PackedSnapshots } from './packed-snapshots';
import { SnapshotTexts } from './snapshot-texts';
import { computeFaultLabels, computeFlags, markDuplicateSns } from './state-flags';

/**
 * Polls every known miner once per cycle with bounded concurrency, normalises to MinerSnapshot,
 * computes flags/labels, marks duplicate SNs, and keeps per-miner state between cycles. A miner is
 * reported offline only after `offlineAfterMissed` consecutive failed polls; until then its last good
 * data is repeated with `missedPolls` set.
 *
 * Slow details (MAC, SN, LED, network mode) are read by the drivers on first sight and then every
 * `detailEveryCycles` (default 60); the poller refreshes them at once, within the same poll, when the reply shows
 * that they may have changed: the miner's elapsed time went down (it rebooted or its mining process restarted),
 * its identity (model, firmware, compile time) changed (re-flashed, or another unit took the IP), or it answers
 * again after having been reported offline (possibly swapped). Operations force a refresh too (invalidateDetail).
 */

export function driverFor(family: IdentifiedMiner['family']): FamilyDriver | null {
  switch (family) {
    case 'antminer-stock':
      return antminerStockDriver;
    case 'whatsminer':
      return whatsminerDriver;
    case 'braiins':
      return braiinsDriver;
    case 'vnish':
      return vnishDriver;
    case 'luxos':
      return luxosDriver;
    default:
      return null;
  }
}

/**
 * A miner's polling state. Its last snapshot is kept as JSON text (~4× smaller than the object graph, which matters at
 * 20,000 miners): a string (`last`: polled alone, missed its poll, handed over) or, from a json cycle, its place in
 * the gzip of the running or the sealed cycle (`at*`, snapshot-texts.ts). One of the two is set (latestText).
 */
interface MinerState {
  handle: MinerHandle;
  missed: number;
  last: string | null;
  /** The place of the last snapshot's text (SnapshotTexts.text), atCycle 0: none. */
  atCycle: number;
  atMember: number;
  atStart: number;
  atEnd: number;
  lastError?: string;
  /** Why the last poll failed, as the agent's error code (offline-reason.ts); null: the miner answered something. */
  lastReason?: MinerErrorCode | null;
  /** elapsed seconds and identity (model, firmware, compile time) of the last good reading: a reboot or swap shows in them */
  elapsed?: number;
  idModel?: string;
  idFirmware?: string;
  idCompileTime?: string | null;
}

export interface CycleOptions {
  offlineAfterMissed: number;
  poolWhitelist: string[][];
  concurrency: number;
  signal?: AbortSignal;
  /** Collect snapshots as JSON texts instead of objects (the agent loop; keeps RSS bounded). */
  json?: boolean;
  /**
   * With `json`: leave the texts as unsorted items (`items`), duplicate SNs not marked: a poll thread's share of the
   * fleet, finished together with the other threads' (duplicateSerials, markDuplicateSnsJson).
   */
  items?: boolean;
  /** With `json`: the texts gzip'd for the spool (`packed`, packed-snapshots.ts) instead of `snapshotsJson`. */
  pack?: boolean;
}

/** A miner's state between cycles without its sessions (web client, tokens): what moves to another poll thread. */
export interface MinerTransfer {
  id: IdentifiedMiner;
  cycle: number;
  noJoin?: boolean;
  joinOk?: boolean;
  detail?: MinerHandle['detail'];
  missed: number;
  last: string | null;
  elapsed?: number;
  idModel?: string;
  idFirmware?: string;
  idCompileTime?: string | null;
}

export interface CycleResult {
  /** Snapshot objects (empty when the cycle was run with `json: true`). */
  snapshots: MinerSnapshot[];
  /** Snapshots as JSON texts, ip order (only with `json: true`): 4× less memory at 20,000 miners. */
  snapshotsJson: string[];
  /** Unsorted items (only with `json` and `items`): finish them with finishCycle. */
  items: CycleItem[];
  /** The snapshots gzip'd for the spool (only with `json` and `pack`; else no parts). */
  packed: PackedSnapshots;
  startedAt: string;
  durationMs: number;
  ok: number;
  failed: number;
  /** Miners whose slow details (MAC, SN, LED, network mode) were read in this cycle. */
  detailReads: number;
  /** Polled in threads: each thread's V8 heap after its share (physical bytes). */
  threadHeapBytes?: number[];
}

/** A fresh state: nothing polled yet, or the last snapshot as a string (handed over). */
function minerState(handle: MinerHandle, missed: number, last: string | null): MinerState {
  return { handle, missed, last, atCycle: 0, atMember: 0, atStart: 0, atEnd: 0 };
}

export class Poller {
  private readonly miners = new Map<string, MinerState>();
  private readonly texts = new SnapshotTexts();
  /**
   * The fleet's duplicate serials of the last json cycle: a json cycle's snapshot is marked at once when its serial is
   * among them, so finishCycle has a text to rewrite only when the duplicates changed.
   */
  private lastDups: ReadonlySet<string> = new Set();

  constructor(private env: DriverEnv) {}

  setEnv(env: DriverEnv): void {
    this.env = env;
  }

  getEnv(): DriverEnv {
    return this.env;
  }

  /** Adds newly identified miners and refreshes identity of known ones (family change = new handle). */
  upsertMiners(found: IdentifiedMiner[]): void {
    for (const id of found) {
      const st = this.miners.get(id.ip);
      if (!st || st.handle.id.family !== id.family) {
        this.miners.set(id.ip, minerState({ id: { ...id }, cycle: 0 }, 0, null));
      } else {
        Object.assign(st.handle.id, id);
      }
    }
  }

  /** The miners' state without sessions, e.g. to hand them to poll threads (importMiners). */
  exportMiners(): MinerTransfer[] {
    return [...this.miners.values()].map((st) => ({
      id: st.handle.id,
      cycle: st.handle.cycle,
      noJoin: st.handle.noJoin,
      joinOk: st.handle.joinOk,
      detail: st.handle.detail,
      missed: st.missed,
      last: this.latestText(st),
      elapsed: st.elapsed,
      idModel: st.idModel,
      idFirmware: st.idFirmware,
      idCompileTime: st.idCompileTime,
    }));
  }

  /** Takes over miners exported by another poller (their sessions are opened again on the next poll). */
  importMiners(list: MinerTransfer[]): void {
    for (const t of list) {
      const handle: MinerHandle = { id: { ...t.id }, cycle: t.cycle };
      if (t.noJoin) handle.noJoin = true;
      if (t.joinOk) handle.joinOk = true;
      if (t.detail) handle.detail = { ...t.detail };
      const st = minerState(handle, t.missed, t.last);
      st.elapsed = t.elapsed;
      st.idModel = t.idModel;
      st.idFirmware = t.idFirmware;
      st.idCompileTime = t.idCompileTime;
      this.miners.set(t.id.ip, st);
    }
  }

  removeMiner(ip: string): boolean {
    return this.miners.delete(ip);
  }

  handle(ip: string): MinerHandle | undefined {
    return this.miners.get(ip)?.handle;
  }

  lastSnapshot(ip: string): MinerSnapshot | null {
    const st = this.miners.get(ip);
    const t = st ? this.latestText(st) : null;
    return t ? (JSON.parse(t) as MinerSnapshot) : null;
  }

  /** The miner's latest snapshot text, wherever it is kept (MinerState). */
  private latestText(st: MinerState): string | null {
    if (st.last !== null) return st.last;
    return st.atCycle > 0 ? this.texts.text(st.atCycle, st.atMember, st.atStart, st.atEnd) : null;
  }

  private keepString(st: MinerState, text: string): void {
    st.last = text;
    st.atCycle = 0;
  }

  /** Writes the text to the running cycle's gzip; `keep`: as the miner's last snapshot (else it keeps a string). */
  private addText(st: MinerState, text: string, keep: boolean): void {
    this.texts.add(text);
    if (!keep) return;
    st.last = null;
    st.atCycle = this.texts.cycle;
    st.atMember = this.texts.member;
    st.atStart = this.texts.start;
    st.atEnd = this.texts.end;
  }

  /** Forces a detail refresh (MAC/SN/LED/mode) on the next poll, e.g. after an operation. */
  invalidateDetail(ip: string): void {
    const st = this.miners.get(ip);
    if (st?.handle.detail) st.handle.detail.cycle = -1e9;
  }

  get size(): number {
    return this.miners.size;
  }

  ips(): string[] {
    return [...this.miners.keys()];
  }

  /** Polls one miner now (used by the cycle and by tests). */
  async pollOne(ip: string, o: Pick<CycleOptions, 'offlineAfterMissed' | 'poolWhitelist'>): Promise<MinerSnapshot | null> {
    return (await this.pollOneText(ip, o))?.snap ?? null;
  }

  /**
   * pollOne plus the snapshot's JSON text, serialised once and kept as the miner's last: in a json cycle (`stage`)
   * written to the cycle's gzip (`text` is then null), else as a string.
   */
  private async pollOneText(
    ip: string,
    o: Pick<CycleOptions, 'offlineAfterMissed' | 'poolWhitelist'>,
    stage = false,
  ): Promise<{ st: MinerState; snap: MinerSnapshot; text: string | null; detailRead?: boolean } | null> {
    const st = this.miners.get(ip);
    if (!st) return null;
    const driver = driverFor(st.handle.id.family);
    if (driver) {
      try {
        let due = detailDue(st.handle, this.env.detailEveryCycles);
        st.handle.missing = st.missed > 0;
        let reading = await driver.read(st.handle, this.env);
        if (!due && st.handle.detail && detailsStale(st, reading, o.offlineAfterMissed)) {
          due = true;
          // rebooted, swapped or re-flashed since the details were read: read them now, not up to an hour later
          st.handle.detail.cycle = -1e9;
          try {
            reading = await driver.read(st.handle, this.env);
          } catch {
            // keep the first reading; the refresh stays due for the next poll
          }
        }
        st.elapsed = reading.elapsedSec;
        st.idModel = reading.model;
        st.idFirmware = reading.firmwareVersion;
        st.idCompileTime = reading.compileTime;
        const net = st.handle.detail?.net;
        if (net && reading.networkMode === undefined) reading.networkMode = net;
        st.handle.cycle++;
        st.missed = 0;
        st.lastError = undefined;
        st.lastReason = undefined;
        const snap = this.toSnapshot(reading, nowIso(), o.poolWhitelist, st.handle.id.reportedModel);
        if (stage && snap.sn !== '' && this.lastDups.has(snap.sn)) snap.faultLabels.push('duplicate-sn');
        const text = JSON.stringify(snap);
        if (stage) {
          this.addText(st, text, true);
          return { st, snap, text: null, detailRead: due };
        }
        this.keepString(st, text);
        return { st, snap, text, detailRead: due };
      } catch (e) {
        st.lastError = e instanceof Error ? e.message : String(e);
        st.lastReason = offlineReason(e);
      }
    }
    st.handle.cycle++;
    st.missed++;
    const online = st.missed < o.offlineAfterMissed;
    // the last snapshot repeated: kept as a string while the miner misses (offline ones would otherwise be unzipped
    // from the sealed cycle every cycle)
    const lastText = this.latestText(st);
    if (lastText) {
      const last = JSON.parse(lastText) as MinerSnapshot;
      // Offline: the last reading says why its poll failed now (while it is only missing, it stays as it was).
      const errorCodes = online ? last.errorCodes : withOfflineReason(last.errorCodes ?? [], st.lastReason ?? null);
      const snap: MinerSnapshot = { ...last, online, missedPolls: st.missed, state: online ? last.state : offlineFlags(), errorCodes };
      const text = JSON.stringify(snap);
      this.keepString(st, text);
      if (stage) this.addText(st, text, false);
      return { st, snap, text };
    }
    const blank = this.blankSnapshot(st.handle, online, st.missed, nowIso());
    if (!online) blank.errorCodes = withOfflineReason(blank.errorCodes, st.lastReason ?? null);
    const text = JSON.stringify(blank);
    if (stage) this.addText(st, text, false);
    return { st, snap: blank, text };
  }

  lastError(ip: string): string | undefined {
    return this.miners.get(ip)?.lastError;
  }

  async pollCycle(o: CycleOptions): Promise<CycleResult> {
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    const out: MinerSnapshot[] = [];
    const outJson: CycleItem[] = [];
    // a json cycle that was never finished (stopped; its poll thread's `finish` not asked for) is sealed as it is
    if (this.texts.count > 0) this.seal();
    let ok = 0;
    let failed = 0;
    let detailReads = 0;
    const ips = [...this.miners.keys()];
    await forEachLimit(ips, o.concurrency, async (ip) => {
      if (o.signal?.aborted) return;
      const r = await this.pollOneText(ip, o, o.json === true);
      if (!r) return;
      const s = r.snap;
      if (s.missedPolls === 0) ok++;
      else failed++;
      if (r.detailRead) detailReads++;
      if (o.json) outJson.push({ n: ipNum(s.ip), sn: s.sn, dup: s.faultLabels.includes('duplicate-sn'), st: r.st, text: r.text });
      else out.push(s);
    });
    let snapshotsJson: string[] = [];
    let snapshots: MinerSnapshot[] = [];
    let items: CycleItem[] = [];
    let packed: PackedSnapshots = { parts: [], count: 0 };
    if (o.json && o.items) items = outJson;
    else if (o.json) {
      const done = this.finishCycle(outJson, duplicateSerials([outJson.map((x) => x.sn)]), o.pack === true);
      if (o.pack) packed = { parts: done.part ? [done.part] : [], count: outJson.length };
      else snapshotsJson = done.texts.map((x) => x.text);
    } else {
      markDuplicateSns(out);
      snapshots = sortByIp(out);
    }
    return { snapshots, snapshotsJson, items, packed, startedAt, durationMs: Date.now() - started, ok, failed, detailReads };
  }

  /**
   * Finishes a json cycle's items: the duplicate serials (`dups`, of the whole fleet) marked, then the cycle sealed;
   * `pack`: its gzip part for the spool (the order the miners answered in), else its texts in IP order.
   */
  finishCycle(items: CycleItem[], dups: ReadonlySet<string>, pack: boolean): { part: Buffer | null; texts: JsonItem[] } {
    this.lastDups = dups;
    let flipped = false;
    for (const x of items) {
      const dup = x.sn !== '' && dups.has(x.sn);
      if (dup === x.dup) continue;
      x.dup = dup;
      const snap = JSON.parse(this.itemText(x)) as MinerSnapshot;
      snap.faultLabels = snap.faultLabels.filter((l) => l !== 'duplicate-sn');
      if (dup) snap.faultLabels.push('duplicate-sn');
      x.text = JSON.stringify(snap);
      this.keepString(x.st, x.text);
      flipped = true;
    }
    // rare (a duplicate serial appeared or went since the last cycle): the cycle's gzip is written again
    if (flipped) {
      const texts = items.map((x) => this.itemText(x));
      this.texts.restart();
      items.forEach((x, k) => this.addText(x.st, texts[k]!, x.text === null));
    }
    let texts: JsonItem[] = [];
    if (!pack) {
      items.sort((a, b) => a.n - b.n);
      texts = items.map((x) => ({ n: x.n, sn: x.sn, text: this.itemText(x), dup: x.dup }));
    }
    return { part: this.seal(), texts };
  }

  /** A cycle item's text: its string, or its miner's place in the running cycle's gzip. */
  private itemText(x: CycleItem): string {
    return x.text ?? this.latestText(x.st) ?? '';
  }

  /** Seals the running cycle (SnapshotTexts.seal); texts still in the cycle sealed before (miners not polled since) become strings. */
  private seal(): Buffer | null {
    const before = this.texts.cycle - 1;
    for (const st of this.miners.values()) if (st.atCycle !== 0 && st.atCycle === before) this.keepString(st, this.texts.text(st.atCycle, st.atMember, st.atStart, st.atEnd));
    return this.texts.seal();
  }

  /** Completes the driver's fresh reading into the snapshot in place (no copy: the reading is not used elsewhere). */
  private toSnapshot(r: MinerReading, takenAt: string, whitelist: string[][], reportedModel: string): MinerSnapshot {
    const model = lookupModel(r.model, r.family) ?? lookupModel(reportedModel, r.family);
    const state = computeFlags(r, model, whitelist, true);
    const faultLabels = computeFaultLabels(r, model);
    const snap = r as MinerSnapshot;
    snap.online = true;
    snap.missedPolls = 0;
    snap.state = state;
    snap.faultLabels = faultLabels;
    snap.takenAt = takenAt;
    return snap;
  }

  private blankSnapshot(h: MinerHandle, online: boolean, missed: number, takenAt: string): MinerSnapshot {
    const id = h.id;
    return {
      ip: id.ip,
      mac: h.detail?.mac ?? '',
      sn: h.detail?.sn ?? '',
      make: id.make,
      model: id.model,
      family: id.family,
      firmwareVersion: id.firmwareVersion,
      compileTime: id.compileTime,
      rt5s: 0,
      rate30m: 0,
      avg: 0,
      ideal: 0,
      boards: [],
      fans: [],
      pools: [],
      workMode: 'normal',
      elapsedSec: 0,
      errorCodes: [],
      online,
      missedPolls: missed,
      state: { ...offlineFlags(), online },
      faultLabels: [],
      takenAt,
    };
  }
}

/**
 * Whether a fresh reading shows that the miner's slow details may have changed since the last good one: its elapsed
 * time went down, its identity (model, firmware, compile time: what the cycle's reply says the unit is) changed, or
 * it had been reported offline.
 */
function detailsStale(st: MinerState, r: MinerReading, offlineAfterMissed: number): boolean {
  if (st.elapsed !== undefined && r.elapsedSec < st.elapsed) return true;
  if (st.idModel !== undefined && (r.model !== st.idModel || r.firmwareVersion !== st.idFirmware || r.compileTime !== st.idCompileTime)) return true;
  return st.missed >= offlineAfterMissed;
}

let isoMs = NaN;
let isoText = '';
/** `new Date().toISOString()`, built once per millisecond (a cycle stamps ~1,000 snapshots per ms at its peaks). */
function nowIso(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/** One snapshot of a json cycle: numeric IP (sort key), serial, JSON text, whether it carries duplicate-sn. */
export interface JsonItem {
  n: number;
  sn: string;
  text: string;
  dup: boolean;
}

/** A json cycle's snapshot before finishCycle: its text a string, or (null) only in the cycle's gzip (its miner's place). */
export interface CycleItem extends Omit<JsonItem, 'text'> {
  text: string | null;
  st: MinerState;
}

/** The items' texts in IP order. */
export function sortedTexts(items: JsonItem[]): string[] {
  items.sort((a, b) => a.n - b.n);
  return items.map((x) => x.text);
}

/** The serials (not empty) that more than one snapshot carries, over one or more poll threads' lists of serials. */
export function duplicateSerials(lists: Iterable<readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const list of lists)
    for (const sn of list) {
      if (!sn) continue;
      if (seen.has(sn)) dup.add(sn);
      else seen.add(sn);
    }
  return dup;
}

function offlineFlags(): MinerSnapshot['state'] {
  return { online: false, qualified: false, unqualified: false, zeroHashrate: false, cannotStart: false, illegalPool: false, abnormalIdeal: false, sleeping: false, lowPower: false };
}

/** Items in numeric IP order (each address converted once, not once per comparison). */
function sortByIp<T extends { ip: string }>(items: T[]): T[] {
  const keyed = items.map((item) => ({ item, n: ipNum(item.ip) }));
  keyed.sort((a, b) => a.n - b.n);
  return keyed.map((k) => k.item);
}

/** Dotted IPv4 → number, without splitting into strings (anything else sorts as its digits run together). */
function ipNum(ip: string): number {
  let acc = 0;
  let part = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46 /* . */) {
      acc = acc * 256 + part;
      part = 0;
    } else if (c >= 48 && c <= 57) part = part * 10 + (c - 48);
  }
  return acc * 256 + part;
}
