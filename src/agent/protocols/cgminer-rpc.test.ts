import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError, rpcCommand, rpcExchange, rpcMulti } from './cgminer-rpc';

/** Tiny cgminer-style servers built from the reference's examples (§1.1, §10.1). */
type Behaviour = (sock: net.Socket, req: string) => void;
const servers: net.Server[] = [];

async function serve(b: Behaviour): Promise<number> {
  const srv = net.createServer((sock) => {
    let buf = '';
    sock.on('error', () => sock.destroy());
    sock.on('data', (c) => {
      buf += c.toString('utf8');
      try {
        if (buf.startsWith('{')) JSON.parse(buf);
      } catch {
        return;
      }
      b(sock, buf);
    });
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return (srv.address() as net.AddressInfo).port;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

const SUMMARY = '{"STATUS":[{"STATUS":"S","When":1718003022,"Code":11,"Msg":"Summary","Description":"cgminer 1.0.0"}],"SUMMARY":[{"Elapsed":50474,"GHS 5s":104566.89}],"id":1}';

describe('cgminer RPC client', () => {
  it('reads until NUL, across several segments with nested braces', async () => {
    const port = await serve((sock) => {
      const parts = [SUMMARY.slice(0, 40), SUMMARY.slice(40, 90), SUMMARY.slice(90)];
      let i = 0;
      const t = setInterval(() => {
        const p = parts[i++];
        if (p === undefined) {
          clearInterval(t);
          sock.end('\u0000');
        } else sock.write(p);
      }, 5);
    });
    const r = await rpcCommand('127.0.0.1', port, 'summary');
    expect((r['SUMMARY'] as Array<Record<string, unknown>>)[0]?.['GHS 5s']).toBe(104566.89);
  });
  it('keeps concurrent replies apart: large, multi-byte, in odd segments (one shared read buffer)', async () => {
    // each connection gets its own reply (> 64 KiB, the read buffer's size) with 3-byte characters cut mid-way
    const replyFor = (n: number) => JSON.stringify({ STATUS: [{ STATUS: 'S', Msg: `矿机 ${n}` }], LOG: `${n}:${'算力'.repeat(12_000 + n * 7)}`, id: n });
    let next = 0;
    const port = await serve((sock) => {
      const bytes = Buffer.from(`${replyFor(next++)}\u0000`, 'utf8');
      let at = 0;
      const t = setInterval(() => {
        const step = 7_001 + (at % 13);
        sock.write(bytes.subarray(at, at + step));
        at += step;
        if (at >= bytes.length) {
          clearInterval(t);
          sock.end();
        }
      }, 1);
    });
    const texts = await Promise.all(Array.from({ length: 12 }, () => rpcExchange('127.0.0.1', port, '{"command":"log"}')));
    const ids = texts.map((t) => (JSON.parse(t) as { id: number }).id);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    texts.forEach((t, i) => expect(t).toBe(replyFor(ids[i]!)));
  });
  it('handles close without NUL', async () => {
    const port = await serve((sock) => sock.end(SUMMARY));
    expect((await rpcCommand('127.0.0.1', port, 'summary'))['id']).toBe(1);
  });
  it('finishes on complete JSON when the peer keeps the socket open (btminer)', async () => {
    const port = await serve((sock) => sock.write('{"STATUS":"S","When":1,"Code":131,"Msg":{"fw_ver":"20230803.11.REL"},"Description":""}'));
    const started = Date.now();
    const r = await rpcCommand('127.0.0.1', port, 'get_version', { completeWhenJson: true, timeoutMs: 5000 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect((r['Msg'] as Record<string, unknown>)['fw_ver']).toBe('20230803.11.REL');
  });
  it('times out on a silent peer instead of hanging', async () => {
    const port = await serve(() => undefined);
    await expect(rpcCommand('127.0.0.1', port, 'summary', { timeoutMs: 300 })).rejects.toMatchObject({ kind: 'timeout' });
  });
  it('hands a reply that stalls mid-way to the tolerant parser (truncated)', async () => {
    const port = await serve((sock) => sock.write(SUMMARY.slice(0, SUMMARY.length - 10)));
    const r = await rpcCommand('127.0.0.1', port, 'summary', { timeoutMs: 300 });
    expect(r['STATUS']).toBeDefined();
  });
  it('reports refused and reset connections as RpcError', async () => {
    const port = await serve((sock) => sock.resetAndDestroy());
    await expect(rpcCommand('127.0.0.1', port, 'summary')).rejects.toBeInstanceOf(RpcError);
    const dead = await serve(() => undefined);
    await new Promise<void>((r) => servers.pop()?.close(() => r()));
    await expect(rpcExchange('127.0.0.1', dead, '{}')).rejects.toMatchObject({ kind: 'refused' });
  });
  it('sends the plain-text form and parses the text reply', async () => {
    let got = '';
    const port = await serve((sock, req) => {
      got = req;
      sock.end('STATUS=S,When=1,Code=11,Msg=Summary,Description=cgminer|SUMMARY,Elapsed=5,GHS 5s=1.5|\u0000');
    });
    const r = await rpcCommand('127.0.0.1', port, 'summary', { plain: true });
    expect(got).toBe('summary');
    expect((r['SUMMARY'] as Array<Record<string, unknown>>)[0]?.['Elapsed']).toBe(5);
  });
  it('STATUS E Code 45 → denied', async () => {
    const port = await serve((sock) => sock.end('{"STATUS":[{"STATUS":"E","When":1,"Code":45,"Msg":"Access denied to \'addpool\' command","Description":"cgminer 1.0.0"}],"id":1}\u0000'));
    await expect(rpcCommand('127.0.0.1', port, 'addpool', { parameter: 'a,b,c' })).rejects.toMatchObject({ kind: 'denied', code: 45 });
  });
  it('multi-command: sections from one reply; per-command fallback when the join is rejected', async () => {
    const seen: string[] = [];
    const port = await serve((sock, req) => {
      const cmd = (JSON.parse(req) as { command: string }).command;
      seen.push(cmd);
      if (cmd.includes('+')) return sock.end('{"STATUS":[{"STATUS":"E","When":1,"Code":14,"Msg":"Invalid command","Description":"x"}],"id":1}\u0000');
      sock.end(`{"STATUS":[{"STATUS":"S","When":1,"Code":1,"Msg":"ok","Description":"x"}],"${cmd.toUpperCase()}":[{"n":"${cmd}"}],"id":1}\u0000`);
    });
    const r = await rpcMulti('127.0.0.1', port, ['summary', 'pools']);
    expect(r.joined).toBe(false);
    expect(r.joinUnsupported).toBe(true);
    expect(r.results['pools']?.ok).toBe(true);
    expect(seen).toEqual(expect.arrayContaining(['summary+pools', 'summary', 'pools']));
    const joinedPort = await serve((sock) => sock.end(`{"summary":[${SUMMARY}],"pools":[{"STATUS":[{"STATUS":"S"}],"POOLS":[]}],"id":1}\u0000`));
    const j = await rpcMulti('127.0.0.1', joinedPort, ['summary', 'pools']);
    expect(j.joined).toBe(true);
    expect(j.results['summary']?.ok && j.results['pools']?.ok).toBe(true);
  });
  it('multi-command left unanswered: one command at a time only while the unit never answered a joined request', async () => {
    // A unit that answers nothing (powered off behind a proxy, hung): every request times out.
    const seen: string[] = [];
    const port = await serve((_sock, req) => void seen.push((JSON.parse(req) as { command: string }).command));
    const o = { timeoutMs: 150 };
    // Join support unknown: after the silent joined request each command is asked alone (a unit may not join).
    const unknown = await rpcMulti('127.0.0.1', port, ['summary', 'pools'], o);
    expect(unknown.results['summary']).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(seen.sort()).toEqual(['pools', 'summary', 'summary+pools']);
    // It answered joined requests before: no answer now is no answer — not a second wait per command.
    seen.length = 0;
    const proven = await rpcMulti('127.0.0.1', port, ['summary', 'pools'], { ...o, joinProven: true });
    expect(proven.results['pools']).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(seen).toEqual(['summary+pools']);
  });
});
