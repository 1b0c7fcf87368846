import http from 'node:http';

/**
 * Minimal HTTP/1.1 client for miner web APIs (no keep-alive: 20,000 idle sockets would exhaust file
 * descriptors). Never throws anything but HttpError; every request has a hard deadline.
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
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole-request deadline (default 5000 ms). */
  timeoutMs?: number;
  /** Body size cap (default 2 MiB). */
  maxBytes?: number;
}

export function httpRequest(host: string, port: number, path: string, o: HttpRequestOptions = {}): Promise<HttpResponse> {
  const timeoutMs = o.timeoutMs ?? 5000;
  const maxBytes = o.maxBytes ?? 2 * 1024 * 1024;
  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const headers: Record<string, string | number> = { Connection: 'close', ...o.headers };
    if (o.body !== undefined) headers['Content-Length'] = Buffer.byteLength(o.body);
    const req = http.request({ host, port, path, method: o.method ?? 'GET', headers, agent: false });
    const timer = setTimeout(() => done(new HttpError('timeout', `${o.method ?? 'GET'} ${path}: no reply within ${timeoutMs} ms`)), timeoutMs);
    function done(err: HttpError | null, res?: HttpResponse): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(res as HttpResponse);
    }
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= maxBytes) chunks.push(c);
      });
      res.on('end', () => done(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => done(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('aborted', () => done(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const c = err.code ?? '';
      if (c === 'ECONNREFUSED') done(new HttpError('refused', 'connection refused'));
      else if (c === 'EHOSTUNREACH' || c === 'ENETUNREACH' || c === 'EADDRNOTAVAIL') done(new HttpError('unreachable', c));
      else done(new HttpError('reset', `${c || 'socket error'}: ${err.message}`));
    });
    if (o.body !== undefined) req.end(o.body);
    else req.end();
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
