import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { plainIPv4 } from './cidr';
import { applyJsonQuirk, isJsonQuirk } from './quirks';
import { SLOW_REPLY_MS, type SimEnv } from './sim-types';
import { antminerStockRpc } from './devices/antminer-stock';
import { braiinsRpc } from './devices/braiins';
import { dispatchCgminer, errorReply, parseRpcRequest, whenSec, type RpcOutcome, type RpcRequest } from './devices/cgminer-common';
import { luxosRpc } from './devices/luxos';
import type { SimMiner } from './devices/sim-miner';
import { vnishRpc } from './devices/vnish';
import { whatsminerApi, whatsminerRpc, whatsminerV3 } from './devices/whatsminer';

/** How long a connection may sit without a complete request before it is dropped. */
const REQUEST_IDLE_MS = 15_000;
const MAX_REQUEST_BYTES = 64 * 1024;
/** cgminer parses what one recv() gave it; we allow segmented requests but answer Invalid JSON after this idle gap. */
const INCOMPLETE_IDLE_MS = 300;
/** Largest firmware image a Whatsminer accepts over the v2 upload. */
const MAX_IMAGE_BYTES = 256 * 1024 * 1024;

export type MinerLookup = (ip: string) => SimMiner | undefined;

/** How long a silent miner holds a connection it never answers (every client gives up long before). */
const SILENT_HOLD_MS = 120_000;

/** Drop a connection the way a dead host/closed port looks from outside: a TCP reset. */
export function resetSocket(socket: net.Socket): void {
  if (typeof socket.resetAndDestroy === 'function' && !socket.destroyed) socket.resetAndDestroy();
  else socket.destroy();
}

/**
 * A connection to a miner that does not answer now: a silent offline miner (SimMiner.silent) keeps it and says nothing,
 * as a powered-off unit or a dead cable looks to a poller (it times out: "no answer"); anything else resets it.
 */
export function refuseSocket(socket: net.Socket, m: SimMiner | undefined): void {
  if (!m?.silent) {
    resetSocket(socket);
    return;
  }
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.on('error', () => socket.destroy());
  socket.on('end', () => socket.destroy());
  socket.setTimeout(SILENT_HOLD_MS, () => socket.destroy());
}

function route(m: SimMiner, req: RpcRequest, now: number): RpcOutcome {
  switch (m.family) {
    case 'whatsminer': return whatsminerRpc(m, req, now);
    case 'braiins': return dispatchCgminer(braiinsRpc, m, req, now);
    case 'vnish': return dispatchCgminer(vnishRpc, m, req, now);
    case 'luxos': return dispatchCgminer(luxosRpc, m, req, now);
    default: return dispatchCgminer(antminerStockRpc, m, req, now);
  }
}

function descriptionOf(m: SimMiner): string {
  switch (m.family) {
    case 'whatsminer': return 'btminer';
    case 'braiins': return braiinsRpc.description(m);
    case 'vnish': return vnishRpc.description(m);
    case 'luxos': return luxosRpc.description(m);
    default: return antminerStockRpc.description(m);
  }
}

/**
 * The fleet's single CGMiner-API listener (TCP 4028): one request per connection, reply + NUL, then close (§1.1).
 * The miner is chosen by the local address the client dialled.
 */
export function createRpcServer(lookup: MinerLookup, env: SimEnv): net.Server {
  return net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    const m = lookup(plainIPv4(socket.localAddress));
    if (!m || !m.apiUp) {
      refuseSocket(socket, m);
      return;
    }
    let buf = '';
    let done = false;
    const decoder = new StringDecoder('utf8');
    /** Set while a firmware image is being received after a `ready` reply. */
    let upload: { handler: (image: Buffer) => { text: string; after?: () => void }; data: Buffer } | null = null;
    socket.setTimeout(REQUEST_IDLE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());

    const respond = (text: string, after?: () => void, next?: (image: Buffer) => { text: string; after?: () => void }): void => {
      const send = (): void => {
        if (socket.destroyed) return;
        if (!m.apiUp) {
          resetSocket(socket);
          return;
        }
        if (next) {
          upload = { handler: next, data: Buffer.alloc(0) };
          socket.setTimeout(120_000, () => socket.destroy());
          socket.write(`${text}\0`);
          return;
        }
        socket.end(`${text}\0`, () => after?.());
      };
      if (m.quirk === 'slow') setTimeout(send, SLOW_REPLY_MS);
      else send();
    };

    const handle = (final: boolean): void => {
      if (done) return;
      const parsed = parseRpcRequest(buf);
      if (parsed === null) {
        if (!final) return;
        done = true;
        if (buf.trim() === '') {
          socket.end();
          return;
        }
        respond(JSON.stringify(errorReply(whenSec(env.now()), 23, 'Invalid JSON', descriptionOf(m))));
        return;
      }
      done = true;
      if (m.quirk === 'reset') {
        resetSocket(socket);
        return;
      }
      if ('error' in parsed) {
        const when = whenSec(env.now());
        const reply = parsed.error === 'invalid-json' ? errorReply(when, 23, 'Invalid JSON', descriptionOf(m)) : errorReply(when, 24, "Missing JSON 'command'", descriptionOf(m));
        respond(JSON.stringify(reply));
        return;
      }
      if (parsed.command === '__enc__' && m.family !== 'whatsminer') {
        respond(JSON.stringify(errorReply(whenSec(env.now()), 24, "Missing JSON 'command'", descriptionOf(m))));
        return;
      }
      const out = route(m, parsed, env.now());
      if (out.kind === 'reset') {
        resetSocket(socket);
        return;
      }
      const text = out.json !== false && isJsonQuirk(m.quirk) ? applyJsonQuirk(out.text, m.quirk) : out.text;
      respond(text, out.after, out.upload);
    };

    const takeImage = (chunk: Buffer): void => {
      if (!upload) return;
      upload.data = upload.data.length ? Buffer.concat([upload.data, chunk]) : chunk;
      if (upload.data.length < 4) return;
      const len = upload.data.readUInt32LE(0);
      if (len > MAX_IMAGE_BYTES) {
        socket.destroy();
        return;
      }
      if (upload.data.length < 4 + len) return;
      const result = upload.handler(upload.data.subarray(4, 4 + len));
      upload = null;
      socket.end(`${result.text}\0`, () => result.after?.());
    };

    let idle: NodeJS.Timeout | undefined;
    socket.on('data', (raw: Buffer) => {
      if (upload) {
        takeImage(raw);
        return;
      }
      if (done) return;
      const chunk = decoder.write(raw);
      buf += chunk;
      if (buf.length > MAX_REQUEST_BYTES) {
        socket.destroy();
        return;
      }
      handle(false);
      if (idle) clearTimeout(idle);
      if (!done) idle = setTimeout(() => handle(true), INCOMPLETE_IDLE_MS);
    });
    socket.on('end', () => handle(true));
    socket.on('close', () => { if (idle) clearTimeout(idle); });
  });
}

const MAX_V3_FRAME = 1024 * 1024;

/** Whatsminer API v3 listener (TCP 4433): 4-byte little-endian length + JSON, connection reusable (§3.4). */
export function createWhatsminerV3Server(lookup: MinerLookup, env: SimEnv): net.Server {
  return net.createServer({ noDelay: true }, (socket) => {
    const m = lookup(plainIPv4(socket.localAddress));
    if (!m || m.family !== 'whatsminer' || whatsminerApi(m) !== 'v3' || !m.apiUp) {
      refuseSocket(socket, m);
      return;
    }
    let buf: Buffer = Buffer.alloc(0);
    socket.setTimeout(300_000, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    const frame = (obj: unknown): Buffer => {
      const body = Buffer.from(JSON.stringify(obj), 'utf8');
      const head = Buffer.alloc(4);
      head.writeUInt32LE(body.length, 0);
      return Buffer.concat([head, body]);
    };
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      while (buf.length >= 4) {
        const len = buf.readUInt32LE(0);
        if (len > MAX_V3_FRAME) {
          socket.destroy();
          return;
        }
        if (buf.length < 4 + len) return;
        const body = buf.subarray(4, 4 + len).toString('utf8');
        buf = Buffer.from(buf.subarray(4 + len));
        if (!m.apiUp || m.quirk === 'reset') {
          resetSocket(socket);
          return;
        }
        let req: Record<string, unknown> | null = null;
        try {
          const v: unknown = JSON.parse(body);
          if (typeof v === 'object' && v !== null && !Array.isArray(v)) req = v as Record<string, unknown>;
        } catch {
          req = null;
        }
        const { reply, after } = req
          ? whatsminerV3(m, req, env.now())
          : { reply: { code: -1, when: whenSec(env.now()), msg: 'invalid json', desc: '' }, after: undefined };
        const send = (): void => {
          if (socket.destroyed) return;
          socket.write(frame(reply), () => after?.());
        };
        if (m.quirk === 'slow') setTimeout(send, SLOW_REPLY_MS);
        else send();
      }
    });
  });
}
