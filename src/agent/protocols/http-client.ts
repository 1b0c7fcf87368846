import type http from 'node:http';
import net from 'node:net';
import { addDeadline, cancelDeadline } from './deadlines';

/**
 * Minimal HTTP/1.1 client for miner web APIs, written on a raw TCP socket: one request per connection
 * (`Connection: close`; no keep-alive: 20,000 idle sockets would exhaust file descriptors), the reply
 * framed by Content-Length, chunked transfer coding or the peer closing. Node's http client costs about
 * twice the CPU per request (ClientRequest, agent, parser pool) and the agent makes tens of thousands of
 * these per scan. Never throws anything but HttpError; every request has a hard deadline.
 */

export type HttpErrorKind = 'refused' | 'timeout' | 'reset' | 'unreachable' | 'auth-failed' | 'http-status' | 'bad-reply';

export class HttpError extends Error {
  constructor(
    readonly kind: HttpErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (set-cookie: an array), as Node's http does. */
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole-request deadline (default 5000 ms). */
  timeoutMs?: number;
  /** Body size cap (default 2 MiB): a longer body is cut there and the connection closed. */
  maxBytes?: number;
  /**
   * Which maxBytes of a longer body to keep: 'head' (default: the first, the rest not read) or 'tail' (the last: the
   * whole body is read, up to TAIL_READ_MAX, and its end kept — a log's newest lines are at its end).
   */
  keep?: 'head' | 'tail';
}

/** With keep 'tail', reading stops after this many body bytes (the end of a reply that never ends is not waited for). */
export const TAIL_READ_MAX = 64 * 1024 * 1024;

/** Headers that keep their first value when repeated (as Node's http). */
const SINGLE_HEADERS = new Set(['content-type', 'content-length', 'location', 'server', 'etag', 'last-modified', 'authorization', 'host', 'user-agent', 'retry-after', 'age', 'expires']);
const CRLFCRLF = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
const SAFE_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SAFE_PATH = /^[\x21-\x7e]+$/;
const SAFE_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Status line + headers of a reply head (without the blank line). Null when malformed. */
export function parseResponseHead(text: string): { status: number; headers: http.IncomingHttpHeaders } | null {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!m) return null;
  const headers: http.IncomingHttpHeaders = {};
  const h = headers as Record<string, string | string[] | undefined>;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const prev = h[name];
    if (name === 'set-cookie') h[name] = Array.isArray(prev) ? [...prev, value] : [value];
    else if (prev === undefined) h[name] = value;
    else if (!SINGLE_HEADERS.has(name)) h[name] = `${String(prev)}, ${value}`;
  }
  return { status: Number(m[1]), headers };
}

/** Incremental decoder of a chunked body (RFC 9112 §7.1); extensions and trailers are skipped. */
class ChunkedDecoder {
  private pending: Buffer | null = null;
  private remaining = 0;
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  done = false;
  bad = false;

  /** Feeds raw bytes; calls `out` with each piece of body data. */
  push(buf: Buffer, out: (b: Buffer) => void): void {
    let b = this.pending ? Buffer.concat([this.pending, buf]) : buf;
    this.pending = null;
    for (;;) {
      if (this.state === 'data') {
        if (b.length === 0) return;
        const n = Math.min(this.remaining, b.length);
        out(b.subarray(0, n));
        b = b.subarray(n);
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      if (this.state === 'done') return;
      const eol = b.indexOf(CRLF);
      if (eol < 0) {
        if (b.length > 4096) this.bad = true;
        else if (b.length) this.pending = Buffer.from(b);
        return;
      }
      const line = b.subarray(0, eol).toString('latin1');
      b = b.subarray(eol + 2);
      if (this.state === 'data-end') {
        this.state = 'size';
        if (line !== '') {
          this.bad = true;
          return;
        }
      } else if (this.state === 'size') {
        const size = Number.parseInt(line.split(';', 1)[0]!.trim(), 16);
        if (!Number.isFinite(size) || size < 0) {
          this.bad = true;
          return;
        }
        if (size === 0) this.state = 'trailer';
        else {
          this.remaining = size;
          this.state = 'data';
        }
      } else if (line === '') {
        this.state = 'done';
        this.done = true;
        return;
      }
    }
  }
}

function classify(err: NodeJS.ErrnoException): HttpError {
  const c = err.code ?? '';
  if (c === 'ECONNREFUSED') return new HttpError('refused', 'connection refused');
  if (c === 'EHOSTUNREACH' || c === 'ENETUNREACH' || c === 'EADDRNOTAVAIL') return new HttpError('unreachable', c);
  return new HttpError('reset', `${c || 'socket error'}: ${err.message}`);
}

export function httpRequest(host: string, port: number, path: string, o: HttpRequestOptions = {}): Promise<HttpResponse> {
  const timeoutMs = o.timeoutMs ?? 5000;
  const maxBytes = o.maxBytes ?? 2 * 1024 * 1024;
  const tail = o.keep === 'tail';
  const method = o.method ?? 'GET';
  return new Promise<HttpResponse>((resolve, reject) => {
    if (!SAFE_TOKEN.test(method) || !SAFE_PATH.test(path)) {
      reject(new HttpError('bad-reply', `invalid request line: ${method} ${path.slice(0, 80)}`));
      return;
    }
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${port === 80 ? host : `${host}:${port}`}\r\nConnection: close\r\n`;
    for (const k in o.headers) {
      const v = o.headers[k]!;
      if (!SAFE_TOKEN.test(k) || !SAFE_VALUE.test(v)) {
        reject(new HttpError('bad-reply', `invalid request header ${k.slice(0, 40)}`));
        return;
      }
      head += `${k}: ${v}\r\n`;
    }
    if (o.body !== undefined) head += `Content-Length: ${Buffer.byteLength(o.body)}\r\n`;
    head += '\r\n';

    let settled = false;
    /** reply head not yet complete: its bytes so far */
    let headBuf: Buffer | null = null;
    let status = 0;
    let headers: http.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    /** Bytes held in chunks. */
    let size = 0;
    /** Body bytes received (with keep 'tail', more than are held). */
    let received = 0;
    /** body length from Content-Length, -1 = until close */
    let expect = -1;
    let chunked: ChunkedDecoder | null = null;
    let gotHead = false;

    const sock = net.connect({ host, port });
    sock.setNoDelay(true);
    const deadline = addDeadline(timeoutMs, () => fail(new HttpError('timeout', `${method} ${path}: no reply within ${timeoutMs} ms`)));

    function fail(err: HttpError): void {
      if (settled) return;
      settled = true;
      cancelDeadline(deadline);
      sock.destroy();
      reject(err);
    }
    function complete(): void {
      if (settled) return;
      settled = true;
      cancelDeadline(deadline);
      sock.destroy();
      const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      resolve({ status, headers, body: (all.length > maxBytes ? all.subarray(all.length - maxBytes) : all).toString('utf8') });
    }
    function addBody(b: Buffer): void {
      if (b.length === 0) return;
      received += b.length;
      if (tail) {
        // Keep the last maxBytes at least: drop whole chunks from the front while the rest still holds that many.
        chunks.push(b);
        size += b.length;
        while (chunks.length > 1 && size - chunks[0]!.length >= maxBytes) size -= chunks.shift()!.length;
        return;
      }
      const room = maxBytes - size;
      const part = b.length > room ? b.subarray(0, room) : b;
      chunks.push(part);
      size += part.length;
    }
    /** Enough read: the head kept, or (keep 'tail') the most a reply is read for. */
    const enough = (): boolean => (tail ? received >= TAIL_READ_MAX : size >= maxBytes);
    function onBody(b: Buffer): void {
      if (chunked) {
        chunked.push(b, addBody);
        if (chunked.bad) fail(new HttpError('bad-reply', `${method} ${path}: malformed chunked body`));
        else if (chunked.done || enough()) complete();
        return;
      }
      addBody(b);
      if (enough() || (expect >= 0 && received >= expect)) complete();
    }

    sock.on('data', (buf: Buffer) => {
      if (settled) return;
      if (gotHead) {
        onBody(buf);
        return;
      }
      const all: Buffer = headBuf ? Buffer.concat([headBuf, buf]) : buf;
      const end = all.indexOf(CRLFCRLF);
      if (end < 0) {
        if (all.length > 64 * 1024) fail(new HttpError('bad-reply', `${method} ${path}: reply head too long`));
        else headBuf = Buffer.from(all);
        return;
      }
      headBuf = null;
      const parsed = parseResponseHead(all.subarray(0, end).toString('latin1'));
      if (!parsed) {
        fail(new HttpError('bad-reply', `${method} ${path}: malformed reply head`));
        return;
      }
      const rest = all.subarray(end + 4);
      if (parsed.status >= 100 && parsed.status < 200) {
        // interim reply (100 Continue): the real head follows
        if (rest.length) sock.emit('data', rest);
        return;
      }
      gotHead = true;
      status = parsed.status;
      headers = parsed.headers;
      if (method === 'HEAD' || status === 204 || status === 304) {
        complete();
        return;
      }
      if (/\bchunked\b/i.test(String(headers['transfer-encoding'] ?? ''))) chunked = new ChunkedDecoder();
      else if (headers['content-length'] !== undefined) {
        const n = Number(headers['content-length']);
        expect = Number.isSafeInteger(n) && n >= 0 ? n : -1;
      }
      if (expect === 0) {
        complete();
        return;
      }
      onBody(rest);
    });
    const closed = (): void => {
      if (settled) return;
      // the body ends with the connection (or was cut short: handed over as received, as Node's http does)
      if (gotHead) complete();
      else fail(new HttpError('reset', `${method} ${path}: socket hang up`));
    };
    sock.on('end', closed);
    sock.on('close', closed);
    sock.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      if (gotHead) complete();
      else fail(classify(err));
    });

    // the head in latin1 (as Node's http writes headers), a string body in UTF-8; written once connected, as the RPC
    // client does (cgminer-rpc.ts): a refused connection then costs no ERR_SOCKET_CLOSED_BEFORE_CONNECTION
    sock.on('connect', () => {
      if (settled) return;
      if (o.body === undefined) sock.write(head, 'latin1');
      else {
        sock.cork();
        sock.write(head, 'latin1');
        sock.write(o.body);
        sock.uncork();
      }
    });
  });
}

/** Parses a JSON body, tolerating BOM/whitespace; throws HttpError('bad-reply'). */
export function jsonBody<T = unknown>(res: HttpResponse): T {
  try {
    return JSON.parse(res.body.replace(/^\uFEFF/, '').trim()) as T;
  } catch {
    throw new HttpError('bad-reply', `invalid JSON (HTTP ${res.status}): ${res.body.slice(0, 80)}`, res.status);
  }
}

/** Builds a multipart/form-data body with one file part and optional fields. */
export function multipartBody(fields: Record<string, string>, file: { field: string; name: string; data: Buffer; type?: string }): { body: Buffer; contentType: string } {
  const boundary = `----hashfield${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
    ),
  );
  parts.push(file.data);
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
