/**
 * The agent's half of a security-scan task (spec 3 §2 /alarm/security, §5; shared contract in
 * @shared/security-scan): stock Antminer firmware of the S19 generation and later ships with SSH closed, so an
 * SSH server answering on a miner, or SSH logins / runs of failed passwords in its log, are what a hijacked miner
 * looks like. Per miner the agent
 * - connects to the SSH port and reads the identification line ("SSH-2.0-dropbear_2020.81"): probeSsh;
 * - reads the miner's log where its firmware serves one (readSecurityLog) and picks out the dropbear and OpenSSH
 *   lines of logins and failed attempts, grouped per source address: parseSshEvents.
 * It only reports what it saw; the server derives the findings (securityFindings) and keeps the records.
 */
import net from 'node:net';
import { DEFAULT_SSH_PORT, type SecurityScanReport, type SshLogEvent } from '@shared/security-scan';
import { readVnishSystemLog } from './families/vnish';
import { readMinerLog } from './history-log';
import type { MinerLog } from './log-text';
import { type DriverEnv, type MinerHandle, OpError } from './miner-types';
import { HttpError } from './protocols/http-client';

/** At most this many groups per report (the schema's limit), the most frequent kept. */
export const MAX_EVENT_GROUPS = 50;
const MAX_LINE = 300;
const MAX_FIELD = 64;
/** An SSH identification line is at most 255 bytes, CR LF included (RFC 4253 §4.2). */
const MAX_BANNER_BYTES = 255;
const MAX_BANNER_CHARS = 200;

// ---------------------------------------------------------------- log lines

type Kind = SshLogEvent['kind'];
interface LineMatch {
  kind: Kind;
  /** The address as the line writes it (dropbear: with its port). */
  rawSource: string;
  user?: string;
  /** dropbear writes "host:port", OpenSSH "host port N". */
  withPort: boolean;
}

/**
 * One event per attempt, as the SSH servers log them: dropbear writes a "Bad password attempt" per password (and one
 * "Login attempt for nonexistent user" per connection), OpenSSH a "Failed <method> for" per attempt, invalid users
 * included. Summary lines — dropbear's "Exit before auth (…): Max auth tries reached", OpenSSH's "Invalid user X from"
 * before its failures — are not counted again: counted, three mistyped passwords would weigh six, past the
 * brute-force threshold (BRUTE_FORCE_ATTEMPTS) of a technician's own fumbles on firmware where SSH is in use.
 *
 * dropbear lines (the firmware's SSH server): the user is quoted; the peer is written `1.2.3.4:5555`,
 * `::ffff:1.2.3.4:5555` or `[fe80::1]:5555`, after "from", sometimes inside <…>. Group 1: the user, when named.
 */
const DROPBEAR: ReadonlyArray<{ re: RegExp; kind: Kind }> = [
  { re: /\b(?:Password|Pubkey|Keyboard-interactive) auth succeeded for '([^']*)'/, kind: 'login' },
  { re: /\bBad (?:password|pubkey|PAM password) attempt for '([^']*)'/, kind: 'failed' },
  { re: /\bLogin attempt for nonexistent user(?: '([^']*)')?/, kind: 'failed' },
];
/** The last "from <peer>" of a dropbear line. */
const DROPBEAR_FROM = /\bfrom <?([^\s<>]+?)>?[:;,.)]?(?=\s|$)/g;

/** OpenSSH lines: group 1 the user, group 2 the address (the port follows as " port N"). */
const OPENSSH: ReadonlyArray<{ re: RegExp; kind: Kind }> = [
  { re: /\bAccepted [\w/-]+ for (\S+) from (\S+) port \d+/, kind: 'login' },
  { re: /\bFailed [\w/-]+ for (?:invalid user )?(\S*) from (\S+) port \d+/, kind: 'failed' },
];

/** Quick filter: a line without any of these words is not an SSH line (most of a kernel log). */
const HINT = /auth|attempt|Accepted|Failed/;

const userOf = (u: string | undefined): string | undefined => (u ? u.slice(0, MAX_FIELD) : undefined);

function matchLine(line: string): LineMatch | null {
  if (!HINT.test(line)) return null;
  for (const p of DROPBEAR) {
    const m = p.re.exec(line);
    if (!m) continue;
    const from = [...line.matchAll(DROPBEAR_FROM)].pop();
    if (!from?.[1]) return null;
    return { kind: p.kind, rawSource: from[1], user: userOf(m[1] ?? /\buser '([^']*)'/.exec(line)?.[1]), withPort: true };
  }
  for (const p of OPENSSH) {
    const m = p.re.exec(line);
    if (m?.[2]) return { kind: p.kind, rawSource: m[2], user: userOf(m[1]), withPort: false };
  }
  return null;
}

/**
 * The remote address without its port; IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as plain IPv4 so both spellings of
 * one host count together. null when it is no address or host name.
 */
export function sshSource(raw: string, withPort: boolean): string | null {
  let s = raw.replace(/^<|>$/g, '');
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracket?.[1]) s = bracket[1];
  else if (withPort) {
    const m = /^(.+):(\d{1,5})$/.exec(s);
    // "fe80::1" alone must not lose its last group: strip only when what is left is still an address
    if (m?.[1] && (net.isIP(m[1]) || /^[A-Za-z0-9.-]+$/.test(m[1]))) s = m[1];
  }
  s = s.replace(/%[\w.-]+$/, '');
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(s)) s = s.slice(7);
  if (net.isIP(s)) return s.toLowerCase();
  return /^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/.test(s) ? s : null;
}

/** syslog folds repeats: "message repeated 3 times: [ Failed password for root from … ]". */
const REPEATED = /message repeated (\d+) times: \[\s*(.*?)\s*\]\s*$/;

/**
 * The SSH logins and failed attempts of a log, grouped by (kind, source, user): how many, and the last such line.
 * At most MAX_EVENT_GROUPS groups, the most frequent first (ties: the first seen first).
 */
export function parseSshEvents(log: string): SshLogEvent[] {
  const groups = new Map<string, SshLogEvent>();
  for (const raw of log.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const rep = REPEATED.exec(line);
    const m = matchLine(rep?.[2] ?? line);
    if (!m) continue;
    const source = sshSource(m.rawSource, m.withPort);
    if (!source) continue;
    const times = rep ? Math.max(1, Number(rep[1]) || 1) : 1;
    const key = `${m.kind}\u0000${source}\u0000${m.user ?? ''}`;
    const g = groups.get(key);
    if (g) {
      g.count += times;
      g.lastLine = line.slice(0, MAX_LINE);
    } else {
      groups.set(key, { kind: m.kind, source, ...(m.user ? { user: m.user } : {}), count: times, lastLine: line.slice(0, MAX_LINE) });
    }
  }
  // Array.prototype.sort is stable: equal counts keep their first-seen order
  return [...groups.values()].sort((a, b) => b.count - a.count).slice(0, MAX_EVENT_GROUPS);
}

// ---------------------------------------------------------------- SSH port

export type SshProbe = { open: true; banner: string } | { open: false; reason: 'refused' | 'timeout' | 'reset' | 'unreachable' | 'no-banner' | 'not-ssh' };

/**
 * Connects to the SSH port and reads the server's identification line. Open only when the first line starts
 * with "SSH-"; refused, timed out, reset, closed without a line, or other data all read as closed. Reads at most
 * 255 bytes, always destroys the socket, never rejects.
 */
export function probeSsh(ip: string, port: number, timeoutMs: number): Promise<SshProbe> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: ip, port });
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (r: SshProbe): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    /** What the bytes so far say, once they are enough to tell (a full line, the cap, or the peer closed). */
    const verdict = (final: boolean): SshProbe | null => {
      const nl = buf.indexOf(0x0a);
      const text = buf.subarray(0, nl >= 0 ? nl : buf.length).toString('latin1').replace(/\r$/, '');
      if (buf.length >= 4 && !text.startsWith('SSH-')) return { open: false, reason: 'not-ssh' };
      if (nl < 0 && buf.length < MAX_BANNER_BYTES && !final) return null;
      if (!text.startsWith('SSH-')) return { open: false, reason: buf.length ? 'not-ssh' : 'no-banner' };
      // printable ASCII only: the banner is shown in the console
      return { open: true, banner: text.replace(/[^\x20-\x7e]/g, '').slice(0, MAX_BANNER_CHARS) };
    };
    // one deadline for connecting and the line: dropbear and OpenSSH send it as soon as the connection is up
    const timer = setTimeout(() => finish((buf.length ? verdict(true) : null) ?? { open: false, reason: 'timeout' }), Math.max(1, timeoutMs));
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]).subarray(0, MAX_BANNER_BYTES);
      const v = verdict(false);
      if (v) finish(v);
    });
    socket.on('end', () => finish(verdict(true) ?? { open: false, reason: 'no-banner' }));
    socket.on('close', () => finish(verdict(true) ?? { open: false, reason: 'no-banner' }));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      const code = e.code ?? '';
      if (buf.length) return finish(verdict(true) ?? { open: false, reason: 'reset' });
      if (code === 'ECONNREFUSED') return finish({ open: false, reason: 'refused' });
      if (/^E(HOST|NET)(UNREACH|DOWN)$|^EADDRNOTAVAIL$/.test(code)) return finish({ open: false, reason: 'unreachable' });
      finish({ open: false, reason: 'reset' });
    });
  });
}

// ---------------------------------------------------------------- one miner

/**
 * The log that shows the miner's SSH logins, per firmware (miner-protocols.md):
 * - stock Antminer: the kernel/system log of the web CGI (get_kernel_log.cgi, then log.cgi; digest auth), dropbear's
 *   lines dated "2024-11-22 05:00:03 dropbear[2211]: …";
 * - VNish: its syslog, served without auth at /api/v1/logs/messages (then /system; §6.2), busybox's format
 *   "Nov 28 12:00:01 Antminer authpriv.warn dropbear[1234]: …";
 * - Braiins OS and LuxOS: none. The reference documents no log endpoint for either (Braiins OS's REST and gRPC APIs
 *   list a miner error list and a support archive of undocumented content, LuxOS's RPC no command that reads a log),
 *   so only their SSH port is checked, and that port is open by design.
 * An endpoint the reference does not document is not guessed at.
 * Throws OpError unsupported-op where there is none (the report then says the log was not read).
 */
export function readSecurityLog(h: MinerHandle, env: DriverEnv): Promise<MinerLog> {
  switch (h.id.family) {
    case 'antminer-stock':
      return readMinerLog(h, env);
    case 'vnish':
      return readVnishSystemLog(h, env);
    default:
      return Promise.reject(new OpError('unsupported-op', `no log to read on ${h.id.family}`));
  }
}

/** Network failures of the log read: with the SSH port closed too, the miner is not reachable at all. */
const NETWORK_KINDS = new Set(['refused', 'unreachable', 'reset', 'timeout']);

/**
 * Scans one miner: the SSH port (env.ports.ssh, default 22) and its log (readSecurityLog), side by side (two
 * connections). A log that cannot be read (refused login, HTTP error, a firmware without one) still gives a report,
 * with logRead false;
 * only a miner that answers neither on SSH nor on its web port throws (the target fails with the usual
 * unreachable/timeout reason, executor.ts reasonOf).
 */
export async function scanMinerSecurity(h: MinerHandle, env: DriverEnv): Promise<SecurityScanReport> {
  const port = env.ports.ssh ?? DEFAULT_SSH_PORT;
  const [probe, log] = await Promise.all([
    probeSsh(h.id.ip, port, Math.max(1000, env.connectTimeoutMs + 2000)),
    readSecurityLog(h, env).then(
      (l) => ({ ok: true as const, content: l.content }),
      (e: unknown) => ({ ok: false as const, error: e }),
    ),
  ]);
  const ssh = probe.open ? { sshOpen: true, banner: probe.banner } : { sshOpen: false };
  if (log.ok) return { ...ssh, logRead: true, events: parseSshEvents(log.content) };
  if (!probe.open && log.error instanceof HttpError && NETWORK_KINDS.has(log.error.kind)) throw log.error;
  return { ...ssh, logRead: false, events: [] };
}
