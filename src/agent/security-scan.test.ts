import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { securityFindings } from '@shared/security-scan';
import { READ_ONLY_PACING, pacingFor } from './executor';
import type { DriverEnv, MinerHandle } from './miner-types';
import { HttpError } from './protocols/http-client';
import { MAX_EVENT_GROUPS, parseSshEvents, probeSsh, readSecurityLog, sshSource } from './security-scan';

/**
 * The security scan's pure log parser on log excerpts as miners write them (dropbear on Antminer firmware and in
 * VNish's busybox syslog, OpenSSH on custom builds, kernel noise around them), the choice of log per firmware
 * (VNish's log API against tiny HTTP servers), and the SSH port probe against tiny servers on loopback.
 */

const DROPBEAR_LOG = `
[    0.000000] Booting Linux on physical CPU 0x0
[    1.204511] usb 1-1: new high-speed USB device number 2 using ci_hdrc
[    2.881000] Failed to find cpu0 device node
2024-11-22 05:00:01 dropbear[2211]: Child connection from 203.0.113.7:50122
2024-11-22 05:00:03 dropbear[2211]: Bad password attempt for 'root' from 203.0.113.7:50122
2024-11-22 05:00:05 dropbear[2211]: Bad password attempt for 'root' from 203.0.113.7:50122
2024-11-22 05:00:07 dropbear[2211]: Bad password attempt for 'admin' from ::ffff:203.0.113.7:50124
2024-11-22 05:00:08 dropbear[2211]: Exit before auth from <203.0.113.7:50122>: Exited normally
2024-11-22 05:00:09 dropbear[2214]: Login attempt for nonexistent user from [fe80::1]:40022
2024-11-22 05:00:10 dropbear[2215]: Exit before auth (user 'root', 3 fails): Max auth tries reached - user 'root' from 1.2.3.4:1234
2024-11-22 05:00:12 dropbear[2216]: Password auth succeeded for 'root' from 203.0.113.7:50130
2024-11-22 05:00:13 dropbear[2217]: Pubkey auth succeeded for 'root' with key md5 0c:4f:1b:aa:b2 from 1.2.3.4:5555
Chain 0 ASIC 108 chips, freq 525
2024-11-22 05:01:00 ERROR_FAN_LOST: fan 1 lost, please check fan
`;

const OPENSSH_LOG = `
Nov 22 05:00:00 miner kernel: [ 12.3] eth0: link up (1000/Full)
Nov 22 05:00:01 miner sshd[901]: Invalid user admin from 1.2.3.4 port 22
Nov 22 05:00:01 miner sshd[901]: Failed password for invalid user admin from 1.2.3.4 port 22 ssh2
Nov 22 05:00:02 miner sshd[902]: Failed password for root from 1.2.3.4 port 5555 ssh2
Nov 22 05:00:03 miner sshd[902]: message repeated 4 times: [ Failed password for root from 1.2.3.4 port 5555 ssh2]
Nov 22 05:00:04 miner sshd[903]: Accepted password for root from 1.2.3.4 port 5555 ssh2
Nov 22 05:00:05 miner sshd[904]: Accepted publickey for root from 2001:db8::7 port 40110 ssh2: RSA SHA256:abc
Nov 22 05:00:06 miner sshd[905]: Failed to load host key /etc/ssh/ssh_host_ed25519_key
Nov 22 05:00:07 miner cgminer: Accepted 00000000a1b2 Diff 65536/4096 BM1362 0
`;

describe('parseSshEvents', () => {
  it('groups dropbear logins and failures by kind, source and user, with the count and the last line', () => {
    const events = parseSshEvents(DROPBEAR_LOG);
    const find = (kind: string, source: string, user?: string) => events.find((e) => e.kind === kind && e.source === source && e.user === user);
    expect(find('failed', '203.0.113.7', 'root')).toEqual({
      kind: 'failed', source: '203.0.113.7', user: 'root', count: 2,
      lastLine: "2024-11-22 05:00:05 dropbear[2211]: Bad password attempt for 'root' from 203.0.113.7:50122",
    });
    // the IPv4-mapped spelling is the same host
    expect(find('failed', '203.0.113.7', 'admin')?.count).toBe(1);
    expect(find('failed', 'fe80::1')).toMatchObject({ count: 1 });
    expect(find('failed', 'fe80::1')).not.toHaveProperty('user');
    // "Max auth tries reached" sums up attempts already logged one by one: not counted again
    expect(find('failed', '1.2.3.4', 'root')).toBeUndefined();
    expect(find('login', '203.0.113.7', 'root')?.count).toBe(1);
    expect(find('login', '1.2.3.4', 'root')?.lastLine).toContain('Pubkey auth succeeded');
    // kernel noise, "Child connection", a clean "Exit before auth" and fan errors are no events
    expect(events.reduce((n, e) => n + e.count, 0)).toBe(6);
    expect(events).toHaveLength(5);
    expect(events[0]).toMatchObject({ kind: 'failed', source: '203.0.113.7', user: 'root' });
  });

  it('counts each attempt once: three mistyped passwords and dropbear\'s summary are three, no brute force', () => {
    const log = [
      "2024-11-22 06:00:01 dropbear[3001]: Bad password attempt for 'root' from 10.8.0.5:41000",
      "2024-11-22 06:00:03 dropbear[3001]: Bad password attempt for 'root' from 10.8.0.5:41000",
      "2024-11-22 06:00:05 dropbear[3001]: Bad password attempt for 'root' from 10.8.0.5:41000",
      "2024-11-22 06:00:05 dropbear[3001]: Exit before auth from <10.8.0.5:41000>: (user 'root', 3 fails): Max auth tries reached - user 'root'",
    ].join('\n');
    const events = parseSshEvents(log);
    expect(events).toEqual([expect.objectContaining({ kind: 'failed', source: '10.8.0.5', user: 'root', count: 3 })]);
    expect(securityFindings({ sshOpen: true, sshExpected: true, logRead: true, events })).toEqual([]);
  });

  it('reads OpenSSH lines, IPv6 sources and folded repeats; cgminer "Accepted" shares are no logins', () => {
    const events = parseSshEvents(OPENSSH_LOG);
    expect(events).toEqual([
      { kind: 'failed', source: '1.2.3.4', user: 'root', count: 5, lastLine: 'Nov 22 05:00:03 miner sshd[902]: message repeated 4 times: [ Failed password for root from 1.2.3.4 port 5555 ssh2]' },
      // "Invalid user admin" announces the attempt its "Failed password for invalid user" line counts: one, not two
      { kind: 'failed', source: '1.2.3.4', user: 'admin', count: 1, lastLine: 'Nov 22 05:00:01 miner sshd[901]: Failed password for invalid user admin from 1.2.3.4 port 22 ssh2' },
      { kind: 'login', source: '1.2.3.4', user: 'root', count: 1, lastLine: 'Nov 22 05:00:04 miner sshd[903]: Accepted password for root from 1.2.3.4 port 5555 ssh2' },
      { kind: 'login', source: '2001:db8::7', user: 'root', count: 1, lastLine: 'Nov 22 05:00:05 miner sshd[904]: Accepted publickey for root from 2001:db8::7 port 40110 ssh2: RSA SHA256:abc' },
    ]);
    expect(securityFindings({ sshOpen: false, logRead: true, events })).toEqual(['ssh-login', 'ssh-brute-force']);
  });

  it('reads dropbear in VNish\'s busybox syslog (host, facility.level, program before the text)', () => {
    const log = [
      "Nov  8 11:58:50 Antminer syslog.info syslogd started: BusyBox v1.31.1",
      "Nov  8 11:58:50 Antminer kern.notice kernel: Linux version 4.9.113 (2025-12-22 19:12:30)",
      "Nov  8 11:58:53 Antminer authpriv.info dropbear[312]: Running in background",
      "Nov 28 12:00:00 Antminer authpriv.info dropbear[1234]: Child connection from 203.0.113.45:51234",
      ...[1, 2, 3].map((k) => `Nov 28 12:00:0${k} Antminer authpriv.warn dropbear[1234]: Bad password attempt for 'root' from 203.0.113.45:51234`),
      "Nov 28 12:00:04 Antminer authpriv.info dropbear[1234]: Exit before auth from <203.0.113.45:51234>: Exited normally",
      ...[5, 6, 7, 8, 9].map((k) => `Nov 28 12:00:1${k} Antminer authpriv.warn dropbear[1240]: Bad password attempt for 'root' from ::ffff:203.0.113.45:51301`),
      "Nov 28 12:00:21 Antminer authpriv.notice dropbear[1240]: Password auth succeeded for 'root' from 203.0.113.45:51301",
      "Nov 28 12:00:22 Antminer authpriv.warn dropbear[1250]: Login attempt for nonexistent user from 198.51.100.2:40000",
      "Nov 28 12:00:30 Antminer daemon.info xminer-api: auth ok for web client 10.20.7.5",
      "Nov 28 12:01:00 Antminer user.notice cgminer[900]: Accepted 00000000a1b2 Diff 65536/4096",
    ].join('\n');
    expect(parseSshEvents(log)).toEqual([
      { kind: 'failed', source: '203.0.113.45', user: 'root', count: 8, lastLine: "Nov 28 12:00:19 Antminer authpriv.warn dropbear[1240]: Bad password attempt for 'root' from ::ffff:203.0.113.45:51301" },
      { kind: 'login', source: '203.0.113.45', user: 'root', count: 1, lastLine: "Nov 28 12:00:21 Antminer authpriv.notice dropbear[1240]: Password auth succeeded for 'root' from 203.0.113.45:51301" },
      { kind: 'failed', source: '198.51.100.2', count: 1, lastLine: 'Nov 28 12:00:22 Antminer authpriv.warn dropbear[1250]: Login attempt for nonexistent user from 198.51.100.2:40000' },
    ]);
    // VNish keeps SSH on by design: the open port is no finding, the brute force and the login are
    expect(securityFindings({ sshOpen: true, sshExpected: true, logRead: true, events: parseSshEvents(log) })).toEqual(['ssh-login', 'ssh-brute-force']);
    // OpenSSH in the same syslog format
    expect(parseSshEvents('Nov 28 12:00:01 miner authpriv.info sshd[77]: Accepted password for root from 198.51.100.9 port 40022 ssh2')).toEqual([
      expect.objectContaining({ kind: 'login', source: '198.51.100.9', user: 'root', count: 1 }),
    ]);
  });

  it('finds nothing in a clean kernel log', () => {
    const clean = ['Booting Linux on physical CPU 0x0', 'Linux version 4.9.113', 'Chain 0 ASIC 126 chips, freq 490', 'auth: nothing', 'Failed to set fan pwm'].join('\n');
    expect(parseSshEvents(clean)).toEqual([]);
    expect(parseSshEvents('')).toEqual([]);
  });

  it('keeps at most 50 groups, the most frequent, and cuts long lines to 300 characters', () => {
    const lines: string[] = [];
    for (let i = 0; i < 80; i++) for (let k = 0; k <= (i % 5); k++) lines.push(`Bad password attempt for 'root' from 10.0.${i}.1:1000`);
    lines.push(`Bad password attempt for '${'x'.repeat(100)}' from 10.9.9.9:1 ${'y'.repeat(400)}`);
    const events = parseSshEvents(lines.join('\n'));
    expect(events).toHaveLength(MAX_EVENT_GROUPS);
    // 80 sources, 16 each with 1…5 attempts: every 5, 4 and 3 kept, then the first two of the 2s
    expect(events.map((e) => e.count)).toEqual([...Array(16).fill(5), ...Array(16).fill(4), ...Array(16).fill(3), 2, 2]);
    expect(events.at(-1)!.source).toBe('10.0.6.1');
    const long = parseSshEvents(lines.at(-1)!)[0]!;
    expect(long.lastLine).toHaveLength(300);
    expect(long.user).toHaveLength(64);
  });

  it('strips ports from the sources the way each server writes them', () => {
    expect(sshSource('203.0.113.7:50122', true)).toBe('203.0.113.7');
    expect(sshSource('::ffff:203.0.113.7:50122', true)).toBe('203.0.113.7');
    expect(sshSource('[fe80::1]:22', true)).toBe('fe80::1');
    expect(sshSource('[fe80::1%eth0]:22', true)).toBe('fe80::1');
    expect(sshSource('2001:db8::7', false)).toBe('2001:db8::7');
    expect(sshSource('fe80::1', true)).toBe('fe80::1');
    expect(sshSource('attacker.example.net:4000', true)).toBe('attacker.example.net');
    expect(sshSource('$(rm -rf /)', false)).toBeNull();
  });
});

describe('readSecurityLog', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  /** A VNish web API whose logs answer as `logs` says (status and text per log name); records the paths asked. */
  async function vnishApi(logs: Record<string, [number, string]>): Promise<{ env: DriverEnv; asked: string[] }> {
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
      const [status, text] = logs[(req.url ?? '').replace('/api/v1/logs/', '')] ?? [404, '{"err":"not found"}'];
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(text);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const env: DriverEnv = {
      ports: { rpc: 1, web: port, whatsminerV3: 1 }, credentials: { antminer: [], whatsminer: [], braiins: [], vnish: [], luxos: [] },
      connectTimeoutMs: 1000, rpcTimeoutMs: 1000, webTimeoutMs: 1000, detailEveryCycles: 5,
    };
    return { env, asked };
  }
  const handle = (family: MinerHandle['id']['family']): MinerHandle => ({
    id: { ip: '127.0.0.1', family, make: 'Antminer', model: 'S21 Pro', reportedModel: 'Antminer S21 Pro (Vnish 1.2.7)', firmwareVersion: '1.2.7', compileTime: null },
    cycle: 0,
  });
  const SYSLOG = "Nov 28 12:00:01 Antminer authpriv.warn dropbear[1234]: Bad password attempt for 'root' from 203.0.113.45:51234\n";

  it('reads VNish\'s messages log without auth, and nothing else when it has text', async () => {
    const { env, asked } = await vnishApi({ messages: [200, SYSLOG], system: [200, 'other'] });
    expect(await readSecurityLog(handle('vnish'), env)).toEqual({ content: SYSLOG, source: '/api/v1/logs/messages' });
    expect(asked).toEqual(['GET /api/v1/logs/messages -']);
  });

  it('falls back to VNish\'s system log when messages is not served or empty', async () => {
    for (const messages of [[404, '{"err":"not found"}'], [500, '{"err":"boom"}'], [200, ' \n']] as [number, string][]) {
      const { env, asked } = await vnishApi({ messages, system: [200, SYSLOG] });
      expect(await readSecurityLog(handle('vnish'), env), JSON.stringify(messages)).toEqual({ content: SYSLOG, source: '/api/v1/logs/system' });
      expect(asked).toEqual(['GET /api/v1/logs/messages -', 'GET /api/v1/logs/system -']);
    }
  });

  it('an empty VNish log is read as empty; no log served is an HTTP error; a dead port fails at once', async () => {
    const empty = await vnishApi({ messages: [200, ''] });
    expect(await readSecurityLog(handle('vnish'), empty.env)).toEqual({ content: '', source: '/api/v1/logs/messages' });

    const none = await vnishApi({ messages: [404, ''], system: [403, ''] });
    const e = await readSecurityLog(handle('vnish'), none.env).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect(e).toMatchObject({ kind: 'http-status', status: 404 });

    await new Promise((r) => servers.pop()!.close(r));
    const dead = await readSecurityLog(handle('vnish'), none.env).catch((x: unknown) => x);
    expect(dead).toMatchObject({ kind: 'refused' });
  });

  it('reads no log on Braiins OS or LuxOS (the reference documents none)', async () => {
    const { env, asked } = await vnishApi({ messages: [200, SYSLOG] });
    for (const family of ['braiins', 'luxos'] as const) await expect(readSecurityLog(handle(family), env)).rejects.toMatchObject({ reason: 'unsupported-op' });
    expect(asked).toEqual([]);
  });
});

describe('probeSsh', () => {
  const servers: net.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  async function serve(onConnection: (s: net.Socket) => void): Promise<number> {
    const server = net.createServer(onConnection);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as net.AddressInfo).port;
  }

  it('reads the identification line of an SSH server', async () => {
    const port = await serve((s) => {
      s.on('error', () => undefined);
      s.write('SSH-2.0-dropbear_2020.81\r\n');
    });
    expect(await probeSsh('127.0.0.1', port, 2000)).toEqual({ open: true, banner: 'SSH-2.0-dropbear_2020.81' });
  });

  it('reads a banner sent in pieces, without waiting for the server to close', async () => {
    const port = await serve((s) => {
      s.on('error', () => undefined);
      s.write('SSH-2.0-Open');
      setTimeout(() => s.write('SSH_8.4\r\nkex…'), 50);
    });
    const t0 = Date.now();
    expect(await probeSsh('127.0.0.1', port, 3000)).toEqual({ open: true, banner: 'SSH-2.0-OpenSSH_8.4' });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('reads a closed port as closed: refused, reset or closed without a byte, silent, or another protocol', async () => {
    const refused = await serve(() => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    expect(await probeSsh('127.0.0.1', refused, 1000)).toEqual({ open: false, reason: 'refused' });

    const reset = await serve((s) => s.resetAndDestroy());
    expect((await probeSsh('127.0.0.1', reset, 1000)).open).toBe(false);

    const closes = await serve((s) => s.end());
    expect(await probeSsh('127.0.0.1', closes, 1000)).toEqual({ open: false, reason: 'no-banner' });

    const silent = await serve((s) => s.on('error', () => undefined));
    expect(await probeSsh('127.0.0.1', silent, 300)).toEqual({ open: false, reason: 'timeout' });

    const http = await serve((s) => {
      s.on('error', () => undefined);
      s.write('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    expect(await probeSsh('127.0.0.1', http, 1000)).toEqual({ open: false, reason: 'not-ssh' });
  });

  it('reads at most 255 bytes of an endless line', async () => {
    const port = await serve((s) => {
      s.on('error', () => undefined);
      s.write(`SSH-2.0-${'z'.repeat(5000)}`);
    });
    const r = await probeSsh('127.0.0.1', port, 2000);
    expect(r.open).toBe(true);
    expect(r.open && r.banner.length).toBe(200);
  });
});

describe('pacing of read-only tasks', () => {
  it('runs scans and history logs in large unpaused packets, operations as the farm says', () => {
    const farm = { packetSize: 50, pauseMs: 3000, concurrency: 50 };
    expect(pacingFor('security-scan', farm)).toEqual(READ_ONLY_PACING);
    expect(pacingFor('history-log', farm)).toEqual(READ_ONLY_PACING);
    expect(READ_ONLY_PACING.pauseMs).toBe(0);
    expect(pacingFor('reboot', farm)).toBe(farm);
    expect(pacingFor('set-pools', farm)).toBe(farm);
  });
});
