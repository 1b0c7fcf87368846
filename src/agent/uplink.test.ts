import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPLINK_PREFIX } from '@shared/schemas/agent-uplink';
import { UplinkClient, UplinkError } from './uplink';

/** A server answering the uplink calls the way a compressing server (or proxy) does, on loopback. */
describe('UplinkClient and compressed answers', () => {
  let server: http.Server;
  let url = '';
  let lastAcceptEncoding: string | undefined;
  let mode: 'gzip' | 'plain' | 'broken' | 'br' = 'gzip';
  const tasks = Array.from({ length: 300 }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    op: 'reboot',
    targets: [{ ip: `10.0.${i >> 8}.${i & 255}` }],
    params: {},
  }));

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      lastAcceptEncoding = req.headers['accept-encoding'];
      const body = Buffer.from(JSON.stringify({ code: 0, msg: 'success', data: req.url === `${AGENT_UPLINK_PREFIX}/tasks` ? tasks : {} }));
      if (mode === 'plain') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end(body);
      }
      const headers = { 'Content-Type': 'application/json', 'Content-Encoding': mode === 'br' ? 'br' : 'gzip' };
      res.writeHead(200, headers);
      res.end(mode === 'broken' ? body.subarray(0, 40) : mode === 'br' ? zlib.brotliCompressSync(body) : zlib.gzipSync(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => new UplinkClient(url, 'farm-zip', 'secret-secret-secret');

  it('asks for gzip and reads a gzip answer (a task list of 300 operations)', async () => {
    mode = 'gzip';
    const got = await client().getTasks();
    expect(lastAcceptEncoding).toBe('gzip');
    expect(got.invalid).toEqual([]);
    expect(got.tasks.map((t) => t.id)).toEqual(tasks.map((t) => t.id));
  });

  it('still reads a plain answer', async () => {
    mode = 'plain';
    expect((await client().getTasks()).tasks).toHaveLength(300);
  });

  it('fails clearly on a broken gzip answer or an encoding it did not ask for', async () => {
    mode = 'broken';
    await expect(client().getTasks()).rejects.toThrow(UplinkError);
    await expect(client().getTasks()).rejects.toThrow(/broken gzip answer/);
    mode = 'br';
    await expect(client().getTasks()).rejects.toThrow(/unknown encoding \(br\)/);
  });
});
