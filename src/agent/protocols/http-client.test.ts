import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pendingDeadlines } from './deadlines';
import { HttpError, httpRequest, parseResponseHead } from './http-client';

/** A raw TCP server that answers every connection with `reply(request)` written in the given pieces. */
const servers: net.Server[] = [];
async function rawServer(reply: (req: string, sock: net.Socket) => void): Promise<number> {
  const srv = net.createServer((sock) => {
    let req = '';
    sock.on('data', (b) => {
      req += b.toString('latin1');
      const end = req.indexOf('\r\n\r\n');
      if (end < 0) return;
      const len = Number(/content-length: (\d+)/i.exec(req)?.[1] ?? 0);
      if (req.length >= end + 4 + len) reply(req, sock);
    });
    sock.on('error', () => undefined);
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return (srv.address() as net.AddressInfo).port;
}

/** Writes the pieces one after another with a pause, so each arrives as its own segment. */
function writePieces(sock: net.Socket, pieces: string[], end = true): void {
  let i = 0;
  const next = (): void => {
    if (i >= pieces.length) {
      if (end) sock.end();
      return;
    }
    sock.write(pieces[i++]!);
    setTimeout(next, 15);
  };
  next();
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('httpRequest (raw socket HTTP/1.1)', () => {
  it('sends method, path, Host, headers and body; reads a Content-Length reply split anywhere', async () => {
    let seen = '';
    const port = await rawServer((req, sock) => {
      seen = req;
      writePieces(sock, ['HTTP/1.1 200 OK\r\nContent-Ty', 'pe: application/json\r\nContent-Length: 11\r\n', '\r\n{"a":', '"bé"}'], false);
    });
    const res = await httpRequest('127.0.0.1', port, '/cgi-bin/x.cgi?a=1', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Digest a="b"' }, body: '{"k":"é"}' });
    expect(res).toEqual({ status: 200, headers: { 'content-type': 'application/json', 'content-length': '11' }, body: '{"a":"bé"}' });
    expect(seen).toMatch(/^POST \/cgi-bin\/x\.cgi\?a=1 HTTP\/1\.1\r\n/);
    expect(seen).toContain(`Host: 127.0.0.1:${port}\r\n`);
    expect(seen).toContain('Connection: close\r\n');
    expect(seen).toContain('Authorization: Digest a="b"\r\n');
    expect(seen).toContain('Content-Length: 10\r\n'); // UTF-8 bytes
    expect(seen.endsWith('\r\n\r\n{"k":"Ã©"}')).toBe(true); // é as UTF-8, read back as latin1 by the test server
    expect(pendingDeadlines()).toBe(0);
  });

  it('decodes a chunked body (chunk sizes, extensions, trailer) across segment boundaries', async () => {
    const port = await rawServer((_req, sock) =>
      writePieces(sock, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhel', 'lo\r\n', '6\r\n wor', 'ld\r\n0\r\nX-Trailer: 1\r\n', '\r\n'], false),
    );
    const res = await httpRequest('127.0.0.1', port, '/');
    expect(res.status).toBe(200);
    expect(res.body).toBe('hello world');
  });

  it('reads a body delimited by the peer closing, and joins repeated headers as Node does', async () => {
    const port = await rawServer((_req, sock) =>
      writePieces(sock, ['HTTP/1.0 401 Unauthorized\r\nWWW-Authenticate: Digest realm="antMiner Configuration", nonce="n1"\r\nWWW-Authenticate: Basic realm="x"\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n', 'part one ', 'part two']),
    );
    const res = await httpRequest('127.0.0.1', port, '/');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Digest realm="antMiner Configuration", nonce="n1", Basic realm="x"');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.body).toBe('part one part two');
  });

  it('skips an interim 100 Continue head; 204 has no body', async () => {
    const port = await rawServer((req, sock) => {
      if (req.startsWith('GET /empty')) writePieces(sock, ['HTTP/1.1 204 No Content\r\n\r\n'], false);
      else writePieces(sock, ['HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'], false);
    });
    expect((await httpRequest('127.0.0.1', port, '/a')).body).toBe('ok');
    expect(await httpRequest('127.0.0.1', port, '/empty')).toMatchObject({ status: 204, body: '' });
  });

  it('cuts a body at maxBytes', async () => {
    const port = await rawServer((_req, sock) => writePieces(sock, ['HTTP/1.1 200 OK\r\n\r\n', 'x'.repeat(5000), 'y'.repeat(5000)], false));
    const res = await httpRequest('127.0.0.1', port, '/', { maxBytes: 6000 });
    expect(res.body).toBe('x'.repeat(5000) + 'y'.repeat(1000));
  });

  it('keeps the end of a longer body with keep tail (a log\'s newest lines), by length, by close or chunked', async () => {
    const body = 'a'.repeat(5000) + 'b'.repeat(5000) + 'c'.repeat(3000);
    const port = await rawServer((req, sock) => {
      if (req.startsWith('GET /length')) writePieces(sock, [`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`, body.slice(0, 5000), body.slice(5000, 10000), body.slice(10000)], false);
      else if (req.startsWith('GET /chunked')) writePieces(sock, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', ...[body.slice(0, 6500), body.slice(6500)].map((c) => `${c.length.toString(16)}\r\n${c}\r\n`), '0\r\n\r\n'], false);
      else writePieces(sock, ['HTTP/1.1 200 OK\r\n\r\n', body.slice(0, 7000), body.slice(7000)]);
    });
    for (const path of ['/length', '/chunked', '/close']) expect((await httpRequest('127.0.0.1', port, path, { maxBytes: 6000, keep: 'tail' })).body, path).toBe(body.slice(-6000));
    // a body within the cap comes whole
    expect((await httpRequest('127.0.0.1', port, '/length', { maxBytes: 20000, keep: 'tail' })).body).toBe(body);
  });

  it('fails with a stated kind: refused, hang-up before a head, timeout, malformed head, bad request line', async () => {
    const closed = await rawServer(() => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    await expect(httpRequest('127.0.0.1', closed, '/')).rejects.toMatchObject({ kind: 'refused' });

    const hangUp = await rawServer((_req, sock) => sock.end());
    await expect(httpRequest('127.0.0.1', hangUp, '/')).rejects.toMatchObject({ kind: 'reset' });

    const silent = await rawServer(() => undefined);
    const t0 = Date.now();
    await expect(httpRequest('127.0.0.1', silent, '/', { timeoutMs: 200 })).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);

    const garbage = await rawServer((_req, sock) => writePieces(sock, ['SSH-2.0-OpenSSH\r\n\r\n']));
    await expect(httpRequest('127.0.0.1', garbage, '/')).rejects.toMatchObject({ kind: 'bad-reply' });

    const err = await httpRequest('127.0.0.1', silent, '/a b').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ kind: 'bad-reply' });
    await expect(httpRequest('127.0.0.1', silent, '/', { headers: { 'X-Evil': 'a\r\nInjected: 1' } })).rejects.toMatchObject({ kind: 'bad-reply' });
    expect(pendingDeadlines()).toBe(0);
  });

  it('parses a reply head', () => {
    expect(parseResponseHead('HTTP/1.1 307 Temporary Redirect\r\nLocation: https://x/\r\nLocation: https://y/')).toEqual({ status: 307, headers: { location: 'https://x/' } });
    expect(parseResponseHead('HTTP/2 200')).toBeNull();
  });
});
