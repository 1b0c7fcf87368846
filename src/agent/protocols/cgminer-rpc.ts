import net from 'node:net';
import { addDeadline, cancelDeadline, resetDeadline, type Deadline } from './deadlines';
import { parseCgminerText, parseTolerantJson, stripNul } from './tolerant-json';

/**
 * CGMiner-family RPC client (TCP 4028; miner-protocols.md §1, §10.1).
 * One request per TCP connection. The reply is read until a NUL byte, the peer closing, or (for
 * btminer, which may keep the socket open) until the buffer parses as a complete JSON document.
 * Every failure is a rejected promise with an RpcError – never an uncaught exception, never a hang.
 */

export type RpcErrorKind =
  | 'refused' // ECONNREFUSED
  | 'connect-timeout'
  | 'timeout' // connected, no complete reply in time
  | 'reset' // ECONNRESET / EPIPE / closed before any byte
  | 'unreachable' // EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL …
  | 'empty' // closed without data
  | 'parse' // reply could not be repaired
  | 'no-data' // firmware proxy said "Socket connect failed"
  | 'status' // STATUS W/E/F
  | 'denied'; // STATUS E Code 45

export class RpcError extends Error {
  constructor(
    readonly kind: RpcErrorKind,
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface RpcOptions {
  /** TCP connect timeout (default 3000 ms). */
  connectTimeoutMs?: number;
  /** Whole-exchange deadline after connect (default 10000 ms). */
  timeoutMs?: number;
  /** Upper bound on reply size (default 4 MiB); larger replies are cut and repaired as truncated. */
  maxBytes?: number;
}

const DEFAULT_CONNECT_MS = 3000;
const DEFAULT_TIMEOUT_MS = 10000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
/**
 * The one read buffer of every RPC socket (net `onread`): libuv reads into it and the callback consumes the
 * bytes synchronously, before any other socket's read, so sharing it is safe.
 */
const readBuffer = Buffer.allocUnsafe(64 * 1024);

function classifySocketError(err: NodeJS.ErrnoException, connected: boolean): RpcError {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return new RpcError('refused', `connection refused`);
  if (code === 'ECONNRESET' || code === 'EPIPE') return new RpcError('reset', `connection reset`);
  if (!connected && (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL' || code === 'EHOSTDOWN'))
    return new RpcError('unreachable', code);
  return new RpcError('reset', `${code || 'socket error'}: ${err.message}`);
}

/**
 * Sends raw bytes on a fresh connection and returns the raw reply (NUL and framing left in place).
 * `completeWhenJson`: also finish when the buffer (ending in `}`) parses as JSON (btminer keep-open).
 */
export function rpcExchange(host: string, port: number, payload: string, opts: RpcOptions & { completeWhenJson?: boolean } = {}): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    new Exchange(host, port, payload, opts, resolve, reject);
  });
}

/**
 * One RPC exchange. A class rather than closures: the poll runs one per miner per cycle, and methods on the
 * prototype cost nothing per exchange where six named inner functions cost six closures (and, under tsx/esbuild
 * keepNames, six `Object.defineProperty(fn, 'name')` calls).
 */
class Exchange {
  private settled = false;
  private connected = false;
  // almost every reply is one read: decoded straight out of the shared read buffer; a reply that spans
  // several reads is copied out piece by piece (the shared buffer is overwritten by the next read)
  private parts: Buffer[] | null = null;
  private size = 0;
  private readonly sock: net.Socket;
  private readonly deadline: Deadline;
  private readonly timeoutMs: number;
  private readonly connectMs: number;
  private readonly maxBytes: number;
  private readonly whenJson: boolean;

  constructor(
    host: string,
    port: number,
    payload: string,
    opts: RpcOptions & { completeWhenJson?: boolean },
    private readonly resolve: (raw: string) => void,
    private readonly reject: (e: RpcError) => void,
  ) {
    this.connectMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_MS;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.whenJson = opts.completeWhenJson === true;
    const sock = net.connect({ host, port, onread: { buffer: readBuffer, callback: this.onRead.bind(this) } });
    this.sock = sock;
    // no setNoDelay: the request is one write, so Nagle never holds it back, and the option costs a setsockopt per
    // connection
    // one shared sweep instead of a timer per socket (deadlines.ts); moved from connect to exchange budget
    this.deadline = addDeadline(this.connectMs, () => this.onDeadline());
    // `on`, not `once`: each fires at most once per socket or is idempotent (finish), and `once` wraps every listener.
    // The request is written once connected: a write while connecting costs net two closures and two once-listeners
    // per exchange, and a refused connection then also an ERR_SOCKET_CLOSED_BEFORE_CONNECTION error with its stack.
    sock.on('connect', () => {
      this.connected = true;
      resetDeadline(this.deadline, this.timeoutMs);
      if (!this.settled) sock.write(payload);
    });
    const closed = this.onClosed.bind(this);
    sock.on('end', closed);
    sock.on('close', closed);
    sock.on('error', (err: NodeJS.ErrnoException) => {
      if (this.size > 0) this.finish(null);
      else this.finish(classifySocketError(err, this.connected));
    });
  }

  private onDeadline(): void {
    if (!this.connected) this.finish(new RpcError('connect-timeout', `connect timeout after ${this.connectMs} ms`));
    // a reply that stalls after some bytes is handed to the tolerant parser (truncated output)
    else if (this.size > 0) this.finish(null);
    else this.finish(new RpcError('timeout', `no reply within ${this.timeoutMs} ms`));
  }

  private onClosed(): void {
    if (this.size === 0) this.finish(new RpcError(this.connected ? 'empty' : 'reset', 'connection closed without a reply'));
    else this.finish(null);
  }

  private text(): string {
    const parts = this.parts;
    if (!parts) return '';
    return parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts, this.size).toString('utf8');
  }

  private finish(err: RpcError | null, tail?: string): void {
    if (this.settled) return;
    this.settled = true;
    cancelDeadline(this.deadline);
    this.sock.destroy();
    if (err) this.reject(err);
    else this.resolve(tail ?? this.text());
  }

  /** Data straight from libuv into `readBuffer` (net's `onread`: no stream machinery, no Buffer per read). */
  private onRead(n: number): boolean {
    if (this.settled || n <= 0) return true;
    const data = readBuffer.subarray(0, n);
    const nul = data.indexOf(0);
    const end = nul >= 0 ? nul : n;
    if (nul >= 0 && !this.parts) {
      // the whole reply in one read: decode in place
      this.size = end;
      this.finish(null, readBuffer.toString('utf8', 0, end));
      return true;
    }
    if (end > 0) {
      (this.parts ??= []).push(Buffer.from(data.subarray(0, end)));
      this.size += end;
    }
    if (end < n || this.size >= this.maxBytes) {
      this.finish(null);
      return true;
    }
    if (this.whenJson) {
      const last = data[n - 1];
      if ((last === 0x7d /* } */ || last === 0x0a) && parseTolerantJsonStrict(this.text())) this.finish(null);
    }
    return true;
  }
}

function parseTolerantJsonStrict(t: string): boolean {
  const s = stripNul(t);
  if (!s.endsWith('}')) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

export type RpcObject = Record<string, unknown>;

/** STATUS of a reply: array form, object form (new Antminer API), flat btminer form, or bare RESTART/BYE. */
export interface RpcStatus {
  letter: string;
  code: number | null;
  msg: string;
  description: string;
}

export function readStatus(reply: unknown): RpcStatus | null {
  if (!reply || typeof reply !== 'object') return null;
  const o = reply as RpcObject;
  const st = o['STATUS'];
  if (typeof st === 'string') {
    // btminer flat envelope or bare RESTART/BYE
    return {
      letter: st,
      code: typeof o['Code'] === 'number' ? (o['Code'] as number) : null,
      msg: typeof o['Msg'] === 'string' ? (o['Msg'] as string) : '',
      description: typeof o['Description'] === 'string' ? (o['Description'] as string) : '',
    };
  }
  const s0 = Array.isArray(st) ? st[0] : st;
  if (!s0 || typeof s0 !== 'object') return null;
  const s = s0 as RpcObject;
  const code = s['Code'] ?? s['code'];
  return {
    letter: String(s['STATUS'] ?? ''),
    code: typeof code === 'number' ? code : code !== undefined && Number.isFinite(Number(code)) ? Number(code) : null,
    msg: typeof s['Msg'] === 'string' ? (s['Msg'] as string) : typeof s['msg'] === 'string' ? (s['msg'] as string) : '',
    description: String(s['Description'] ?? ''),
  };
}

/** True when the STATUS letter means success (S, I) or the reply is a bare RESTART/BYE token. */
export function isSuccess(status: RpcStatus | null): boolean {
  if (!status) return true; // no STATUS section (e.g. {"PAUSE":[true]}) – caller validates content
  return status.letter === 'S' || status.letter === 'I' || status.letter === 'RESTART' || status.letter === 'BYE';
}

/** Parses a raw reply (JSON, repaired JSON, or plain-text form). Throws RpcError (never anything else). */
export function parseReply(raw: string): RpcObject {
  const s = stripNul(raw);
  if (s.length === 0) throw new RpcError('empty', 'empty reply');
  if (/^Socket connect failed/i.test(s)) throw new RpcError('no-data', s.slice(0, 120));
  if (s.startsWith('STATUS=')) {
    const t = parseCgminerText(s);
    if (t) return t as RpcObject;
  }
  if (s === 'RESTART' || s === 'BYE') return { STATUS: s };
  const p = parseTolerantJson(s);
  if (!p.ok) throw new RpcError('parse', `unparsable reply (${p.error}): ${s.slice(0, 80)}`);
  if (typeof p.value === 'string' && (p.value === 'RESTART' || p.value === 'BYE')) return { STATUS: p.value };
  if (!p.value || typeof p.value !== 'object' || Array.isArray(p.value)) throw new RpcError('parse', 'reply is not an object');
  return p.value as RpcObject;
}

export interface CommandOptions extends RpcOptions {
  parameter?: string;
  /** Extra top-level keys (e.g. {new_api:true}, btminer parameters). */
  extra?: Record<string, unknown>;
  /** Send the plain-text form `cmd|param` instead of JSON. */
  plain?: boolean;
  /** Use the btminer key `cmd` instead of `command`. */
  cmdKey?: 'command' | 'cmd';
  /** Return replies whose STATUS is W/E/F instead of throwing. */
  allowError?: boolean;
  completeWhenJson?: boolean;
}

/** Request texts of parameterless commands without `extra` or with a frozen one (the poll sends the same few every cycle). */
const requestCache = new WeakMap<object, Map<string, string>>();
const NO_EXTRA = {};

/** Builds the request text for one command. */
export function buildRequest(command: string, o: Pick<CommandOptions, 'parameter' | 'extra' | 'plain' | 'cmdKey'> = {}): string {
  if (o.plain) return o.parameter !== undefined ? `${command}|${o.parameter}` : command;
  const cacheable = o.parameter === undefined && (o.extra === undefined || Object.isFrozen(o.extra));
  const key = o.cmdKey === 'cmd' ? `cmd ${command}` : command;
  let texts: Map<string, string> | undefined;
  if (cacheable) {
    texts = requestCache.get(o.extra ?? NO_EXTRA);
    const hit = texts?.get(key);
    if (hit !== undefined) return hit;
  }
  const body: Record<string, unknown> = { [o.cmdKey ?? 'command']: command };
  if (o.parameter !== undefined) body['parameter'] = o.parameter;
  if (o.extra) Object.assign(body, o.extra);
  const text = JSON.stringify(body);
  if (cacheable && (texts?.size ?? 0) < 64) {
    if (!texts) requestCache.set(o.extra ?? NO_EXTRA, (texts = new Map()));
    texts.set(key, text);
  }
  return text;
}

/** Sends one command and returns the parsed reply; STATUS W/E/F → RpcError('status'|'denied') unless allowError. */
export async function rpcCommand(host: string, port: number, command: string, o: CommandOptions = {}): Promise<RpcObject> {
  const raw = await rpcExchange(host, port, buildRequest(command, o), o);
  const reply = parseReply(raw);
  if (!o.allowError) {
    const st = readStatus(reply);
    if (!isSuccess(st)) {
      throw new RpcError(st?.code === 45 ? 'denied' : 'status', `${command}: ${st?.msg || st?.letter || 'error'}`, st?.code ?? undefined);
    }
  }
  return reply;
}

/** Per-command outcome of a multi-command read. */
export type MultiResult = Record<string, { ok: true; reply: RpcObject } | { ok: false; error: RpcError }>;

export interface MultiOptions extends CommandOptions {
  /** Skip the joined request and go straight to one connection per command (learned per miner). */
  noJoin?: boolean;
  /**
   * The unit has answered joined requests before (learned per miner): a joined request left unanswered (timeout) is a
   * unit that does not answer now, and the commands are not asked again one by one — that would wait a second timeout
   * for every poll of a powered-off or hung miner.
   */
  joinProven?: boolean;
}

/**
 * Multi-command read (`summary+pools+stats`). Each command's section is `reply[cmd][0]`. If the joined
 * request fails or a section is missing / in error, that command is retried alone on its own connection.
 * `joined` reports whether the joined request served at least one command (callers cache this per miner).
 */
export async function rpcMulti(
  host: string,
  port: number,
  commands: readonly string[],
  o: MultiOptions = {},
): Promise<{ results: MultiResult; joined: boolean; joinUnsupported: boolean }> {
  const results: MultiResult = {};
  let joined = false;
  let joinTried = false;
  let served = 0;
  if (!o.noJoin && commands.length > 1) {
    joinTried = true;
    try {
      // the joined request with STATUS errors kept (a failed section is retried alone below)
      const reply = parseReply(await rpcExchange(host, port, buildRequest(joinedCommand(commands), o), o));
      for (const c of commands) {
        const sec = reply[c];
        const r0 = Array.isArray(sec) ? sec[0] : undefined;
        if (r0 && typeof r0 === 'object' && isSuccess(readStatus(r0))) {
          results[c] = { ok: true, reply: r0 as RpcObject };
          served++;
          joined = true;
        }
      }
    } catch (e) {
      const err = e instanceof RpcError ? e : new RpcError('parse', String(e));
      // unreachable miner: do not hammer it with one connection per command
      if (err.kind === 'refused' || err.kind === 'connect-timeout' || err.kind === 'unreachable' || (err.kind === 'timeout' && o.joinProven)) {
        for (const c of commands) results[c] = { ok: false, error: err };
        return { results, joined, joinUnsupported: false };
      }
    }
  }
  // the usual case: the joined request served every command
  if (served === commands.length) return { results, joined, joinUnsupported: false };
  const pending = commands.filter((c) => !results[c]);
  await Promise.all(
    pending.map(async (c) => {
      try {
        results[c] = { ok: true, reply: await rpcCommand(host, port, c, o) };
      } catch (e) {
        results[c] = { ok: false, error: e instanceof RpcError ? e : new RpcError('parse', String(e)) };
      }
    }),
  );
  const anyAlone = pending.some((c) => results[c]?.ok);
  return { results, joined, joinUnsupported: joinTried && !joined && anyAlone };
}

/** `summary+pools+stats` for a command list; cached per list (the drivers pass the same frozen lists every cycle). */
const joinedCache = new WeakMap<readonly string[], string>();
function joinedCommand(commands: readonly string[]): string {
  if (!Object.isFrozen(commands)) return commands.join('+');
  let j = joinedCache.get(commands);
  if (j === undefined) joinedCache.set(commands, (j = commands.join('+')));
  return j;
}
