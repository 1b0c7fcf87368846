import { getHeapStatistics } from 'node:v8';
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import type { DriverEnv, IdentifiedMiner } from './miner-types';
import { Poller, type CycleItem, type CycleOptions, type JsonItem, type MinerTransfer } from './poller';

/**
 * One poll thread of the sharded poller (sharded-poller.ts): a Poller that owns its share of the fleet (sessions,
 * missed polls, last snapshots) and polls it when asked. Messages from the main thread, answered when they carry an id:
 *   env {env}                  driver settings (credentials, ports, timeouts)
 *   take {miners}              miners handed over with their state (MinerTransfer)
 *   upsert {miners}            identities from a scan (new miners, or a changed identity)
 *   remove {ip} / invalidate {ip}
 *   snapshot {id, ip}          → the miner's last snapshot or null
 *   cycle {id, o}              → one cycle of this share: ok, failed, detail reads, the serials it read (its JSON
 *                                texts stay here, in the cycle's gzip, until `finish`)
 *   finish {id, dups, pack}    → the cycle's texts with the fleet's duplicate serials marked: gzip'd (PackedSnapshots
 *                                part, in the order the miners answered) or as items for the main thread to sort
 *   abort                      stops the running cycle (the agent is stopping)
 */

/** The requests the thread answers (the main thread numbers them: `id`). */
export type PollWorkerCall =
  | { t: 'snapshot'; ip: string }
  | { t: 'cycle'; o: Pick<CycleOptions, 'offlineAfterMissed' | 'poolWhitelist' | 'concurrency'> }
  | { t: 'finish'; dups: string[]; pack: boolean };

export type PollWorkerRequest =
  | { t: 'env'; env: DriverEnv }
  | { t: 'take'; miners: MinerTransfer[] }
  | { t: 'upsert'; miners: IdentifiedMiner[] }
  | { t: 'remove'; ip: string }
  | { t: 'invalidate'; ip: string }
  | (PollWorkerCall & { id: number })
  | { t: 'abort' };

export interface PollWorkerCycle {
  /** The serials of the share's snapshots (not empty ones), for the fleet-wide duplicate check. */
  sns: string[];
  ok: number;
  failed: number;
  detailReads: number;
  /** The thread's V8 heap after its share (physical bytes): what it adds to the agent's memory. */
  heapBytes: number;
}

/** A finished share: gzip'd (`gz`, a gzip of its comma-joined texts; none when empty) or its items (IP order). */
export interface PollWorkerFinish {
  gz?: Uint8Array;
  items?: JsonItem[];
  count: number;
}

export type PollWorkerReply = { t: 'reply'; id: number; value: PollWorkerCycle | PollWorkerFinish | MinerSnapshot | null } | { t: 'error'; id: number; message: string };

/** Marks a worker started for polling (workerData), so the packaged agent's one file knows what to run in it. */
export const POLL_WORKER_MARK = 'hashfieldPollWorker';

/** Whether this thread was started for polling (the packaged agent's one file asks before running the agent). */
export function isPollWorkerThread(): boolean {
  return !isMainThread && (workerData as Record<string, unknown> | null)?.[POLL_WORKER_MARK] === true;
}

/** Serves the main thread's requests on `port` (the worker's parent port) until the thread is terminated. */
export function startPollWorker(port: MessagePort | null = parentPort): void {
  if (!port) throw new Error('startPollWorker: not in a worker thread');
  const serve = pollRequestHandler((m, transfer) => port.postMessage(m, transfer));
  port.on('message', serve);
}

/**
 * A poll share's request handler: a thread's (startPollWorker) or the main thread's own share (sharded-poller.ts),
 * which gets the same requests without a message port.
 */
export function pollRequestHandler(reply: (m: PollWorkerReply, transfer?: ArrayBuffer[]) => void): (m: PollWorkerRequest) => void {
  let poller: Poller | null = null;
  let abort = new AbortController();
  // the last cycle's items, until `finish` takes them
  let held: CycleItem[] = [];
  return (m) => {
    switch (m.t) {
      case 'env':
        if (poller) poller.setEnv(m.env);
        else poller = new Poller(m.env);
        return;
      case 'take':
        need(poller).importMiners(m.miners);
        return;
      case 'upsert':
        need(poller).upsertMiners(m.miners);
        return;
      case 'remove':
        need(poller).removeMiner(m.ip);
        return;
      case 'invalidate':
        need(poller).invalidateDetail(m.ip);
        return;
      case 'snapshot':
        reply({ t: 'reply', id: m.id, value: need(poller).lastSnapshot(m.ip) });
        return;
      case 'abort':
        abort.abort();
        abort = new AbortController();
        return;
      case 'cycle':
        need(poller)
          .pollCycle({ ...m.o, json: true, items: true, signal: abort.signal })
          .then(
            (r) => {
              held = r.items;
              const sns: string[] = [];
              for (const x of held) if (x.sn) sns.push(x.sn);
              reply({ t: 'reply', id: m.id, value: { sns, ok: r.ok, failed: r.failed, detailReads: r.detailReads, heapBytes: getHeapStatistics().total_physical_size } });
            },
            (e: unknown) => reply({ t: 'error', id: m.id, message: e instanceof Error ? e.message : String(e) }),
          );
        return;
      case 'finish': {
        const items = held;
        held = [];
        const done = need(poller).finishCycle(items, new Set(m.dups), m.pack);
        if (!m.pack) return reply({ t: 'reply', id: m.id, value: { items: done.texts, count: items.length } });
        const gz = done.part ?? undefined;
        // the gzip's memory moves to the main thread instead of being copied, when the Buffer has it to itself
        const own = gz && gz.byteOffset === 0 && gz.byteLength === gz.buffer.byteLength;
        return reply({ t: 'reply', id: m.id, value: { gz, count: items.length } }, own ? [gz.buffer as ArrayBuffer] : undefined);
      }
    }
  };
}

function need(p: Poller | null): Poller {
  if (!p) throw new Error('poll thread used before its settings (env) arrived');
  return p;
}
