import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { lookupModel } from './catalogue';
import { forEachLimit } from './concurrency';
import { antminerStockDriver } from './families/antminer-stock';
import { braiinsDriver } from './families/braiins';
import { luxosDriver } from './families/luxos';
import { vnishDriver } from './families/vnish';
import { whatsminerDriver } from './families/whatsminer';
import { detailDue, type DriverEnv, type FamilyDriver, type IdentifiedMiner, type MinerHandle, type MinerReading } from './miner-types';
import { packTexts, type PackedSnapshots } from './packed-snapshots';
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

interface MinerState {
  handle: MinerHandle;
  missed: number;
  /** last snapshot as JSON text: ~4× smaller than the object graph, which matters at 20,000 miners */
  last: string | null;
  lastError?: string;
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
  /** Unsorted items (only with `json` and `items`). */
  items: JsonItem[];
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

export class Poller {
  private readonly miners = new Map<string, MinerState>();

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
        this.miners.set(id.ip, { handle: { id: { ...id }, cycle: 0 }, missed: 0, last: null });
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
      detail: st.handle.detail,
      missed: st.missed,
      last: st.last,
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
      if (t.detail) handle.detail = { ...t.detail };
      this.miners.set(t.id.ip, { handle, missed: t.missed, last: t.last, elapsed: t.elapsed, idModel: t.idModel, idFirmware: t.idFirmware, idCompileTime: t.idCompileTime });
    }
  }

  removeMiner(ip: string): boolean {
    return this.miners.delete(ip);
  }

  handle(ip: string): MinerHandle | undefined {
    return this.miners.get(ip)?.handle;
  }

  lastSnapshot(ip: string): MinerSnapshot | null {
    const t = this.miners.get(ip)?.last;
    return t ? (JSON.parse(t) as MinerSnapshot) : null;
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

  /** pollOne plus the snapshot's JSON text (serialised once, shared with the cycle output). */
  private async pollOneText(ip: string, o: Pick<CycleOptions, 'offlineAfterMissed' | 'poolWhitelist'>): Promise<{ snap: MinerSnapshot; text: string; detailRead?: boolean } | null> {
    const st = this.miners.get(ip);
    if (!st) return null;
    const driver = driverFor(st.handle.id.family);
    if (driver) {
      try {
        let due = detailDue(st.handle, this.env.detailEveryCycles);
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
        const snap = this.toSnapshot(reading, nowIso(), o.poolWhitelist, st.handle.id.reportedModel);
        st.last = JSON.stringify(snap);
        return { snap, text: st.last, detailRead: due };
      } catch (e) {
        st.lastError = e instanceof Error ? e.message : String(e);
      }
    }
    st.handle.cycle++;
    st.missed++;
    const online = st.missed < o.offlineAfterMissed;
    if (st.last) {
      const last = JSON.parse(st.last) as MinerSnapshot;
      const snap: MinerSnapshot = { ...last, online, missedPolls: st.missed, state: online ? last.state : offlineFlags() };
      st.last = JSON.stringify(snap);
      return { snap, text: st.last };
    }
    const blank = this.blankSnapshot(st.handle, online, st.missed, nowIso());
    return { snap: blank, text: JSON.stringify(blank) };
  }

  lastError(ip: string): string | undefined {
    return this.miners.get(ip)?.lastError;
  }

  async pollCycle(o: CycleOptions): Promise<CycleResult> {
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    const out: MinerSnapshot[] = [];
    const outJson: JsonItem[] = [];
    let ok = 0;
    let failed = 0;
    let detailReads = 0;
    const ips = [...this.miners.keys()];
    await forEachLimit(ips, o.concurrency, async (ip) => {
      if (o.signal?.aborted) return;
      const r = await this.pollOneText(ip, o);
      if (!r) return;
      const s = r.snap;
      if (s.missedPolls === 0) ok++;
      else failed++;
      if (r.detailRead) detailReads++;
      if (o.json) outJson.push({ n: ipNum(s.ip), sn: s.sn, text: r.text, dup: s.faultLabels.includes('duplicate-sn') });
      else out.push(s);
    });
    let snapshotsJson: string[] = [];
    let snapshots: MinerSnapshot[] = [];
    let items: JsonItem[] = [];
    let packed: PackedSnapshots = { parts: [], count: 0 };
    if (o.json && o.items) items = outJson;
    else if (o.json && o.pack) packed = packTexts(finishJsonItems(outJson));
    else if (o.json) snapshotsJson = finishJsonItems(outJson);
    else {
      markDuplicateSns(out);
      snapshots = sortByIp(out);
    }
    return { snapshots, snapshotsJson, items, packed, startedAt, durationMs: Date.now() - started, ok, failed, detailReads };
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

/** A json cycle's items as the batch's texts: duplicate SNs marked, in IP order. */
export function finishJsonItems(items: JsonItem[]): string[] {
  markDuplicateSnsJson(items, duplicateSerials([items.map((x) => x.sn)]));
  return sortedTexts(items);
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

/** markDuplicateSns for JSON-text snapshots, given the cycle's duplicate serials: only the affected few are re-parsed. */
export function markDuplicateSnsJson(items: JsonItem[], dups: ReadonlySet<string>): void {
  for (const x of items) {
    const dup = x.sn !== '' && dups.has(x.sn);
    if (dup === x.dup) continue;
    x.dup = dup;
    const snap = JSON.parse(x.text) as MinerSnapshot;
    snap.faultLabels = snap.faultLabels.filter((l) => l !== 'duplicate-sn');
    if (dup) snap.faultLabels.push('duplicate-sn');
    x.text = JSON.stringify(snap);
  }
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
