import { z } from 'zod';
import { normaliseModelKey } from './miner-capabilities';

/**
 * Security scan of miners (spec 3 §2 /alarm/security "suspicious SSH behaviour", §5 "security scan supports only
 * miners above the S19 model"), shared by the agent (which scans), the server (which keeps the records) and the
 * console (which shows them).
 *
 * Stock Antminer firmware of the S19 generation and later ships with SSH closed; an SSH service answering on a
 * stock miner, a log showing SSH logins, or a run of failed SSH passwords are what farms find on a hijacked miner
 * (the worker redirected, a miner script dropped in). The agent looks at two things per miner:
 * - the SSH port: does an SSH server answer (its banner, "SSH-2.0-…")?
 * - the miner's log: dropbear and OpenSSH lines of logins and failed passwords, per source address. Stock firmware
 *   serves its kernel/system log through the web CGI (get_kernel_log.cgi / log.cgi), VNish its syslog through its
 *   web API (/api/v1/logs/messages, else /system); Braiins OS and LuxOS document no log endpoint, so on them only
 *   the port is checked (agent/security-scan.ts readSecurityLog).
 * It reports what it saw (SecurityScanReport, with the task result); the server derives the findings
 * (securityFindings) and keeps one record per miner until a user marks it processed.
 */

/** The findings, most serious first. */
export const SECURITY_KINDS = ['ssh-login', 'ssh-brute-force', 'ssh-open'] as const;
export type SecurityKind = (typeof SECURITY_KINDS)[number];

/** Failed SSH passwords from one source, in one log, from which it counts as a brute-force attempt. */
export const BRUTE_FORCE_ATTEMPTS = 5;

/**
 * Firmware that keeps SSH on by design (Braiins OS, VNish and LuxOS ship with it enabled and are managed over it): an
 * SSH service answering there is how the firmware is, not a finding. Their logins and failed passwords still are.
 */
export const SSH_BY_DESIGN_FAMILIES: readonly string[] = ['braiins', 'vnish', 'luxos'];

/**
 * Firmware whose SSH is open by design and whose log the agent cannot read (Braiins OS and LuxOS document no log
 * endpoint: agent/security-scan.ts readSecurityLog): a scan would check nothing there, so they are not covered — not
 * counted as checked and found clean.
 */
export const NO_SSH_LOG_FAMILIES: readonly string[] = ['braiins', 'luxos'];

/** Default SSH port probed on the miners (MinerPorts.ssh overrides it). */
export const DEFAULT_SSH_PORT = 22;

/**
 * Miners the scan covers: Antminers of the S19 generation and later (S19, S19j Pro, S19 XP, S19 XP Hyd, S21, T21,
 * and their later kin S23/T23 …), whatever firmware they run: the make and model are the hardware's (the agent
 * stores a VNish "Antminer S21 Pro (Vnish 1.2.7)" as Antminer "S21 Pro"; the raw string passes too), except on the
 * firmware of NO_SSH_LOG_FAMILIES (`family`, when known). Older models (S17, T17, S9 …) and other makes are refused
 * with 'model-not-supported', that firmware with 'firmware-not-supported' (securityScanRefusal).
 */
export function securityScanSupported(make: string | null | undefined, model: string | null | undefined, family?: string | null): boolean {
  return securityScanRefusal(make, model, family) === null;
}

/** Why the scan does not cover a miner (a task result's reason), or null when it does: see securityScanSupported. */
export function securityScanRefusal(make: string | null | undefined, model: string | null | undefined, family?: string | null): 'model-not-supported' | 'firmware-not-supported' | null {
  if (!modelCovered(make, model)) return 'model-not-supported';
  return family && NO_SSH_LOG_FAMILIES.includes(family) ? 'firmware-not-supported' : null;
}

function modelCovered(make: string | null | undefined, model: string | null | undefined): boolean {
  if (!model) return false;
  if (make && !/bitmain|antminer/i.test(make)) return false;
  const key = normaliseModelKey(model);
  const m = /^[ST](\d{2})/.exec(key);
  return !!m && Number(m[1]) >= 19;
}

/** One kind of SSH log line from one source address. */
export const SshLogEvent = z.object({
  /** login: a successful authentication; failed: a rejected password (or key). */
  kind: z.enum(['login', 'failed']),
  /** The remote address (IPv4 or IPv6, without port). */
  source: z.string().min(1).max(64),
  /** The account tried, when the line names it. */
  user: z.string().max(64).optional(),
  count: z.number().int().min(1),
  /** The last such line, as the log has it (cut to 300 characters). */
  lastLine: z.string().max(300),
});
export type SshLogEvent = z.infer<typeof SshLogEvent>;

/** What the agent saw on one miner (TaskMinerResult.security of a security-scan task). */
export const SecurityScanReport = z.object({
  /** An SSH server answered on the SSH port. */
  sshOpen: z.boolean(),
  /** Its identification line ("SSH-2.0-dropbear_2020.81"), when it answered. */
  banner: z.string().max(200).optional(),
  /** The miner's firmware keeps SSH on by design (SSH_BY_DESIGN_FAMILIES): an open port is then not a finding. */
  sshExpected: z.boolean().optional(),
  /** The miner's log could be read (false: only the port was checked). */
  logRead: z.boolean(),
  /** SSH events of the log, grouped by kind and source; at most 50 groups (the most frequent). */
  events: z.array(SshLogEvent).max(50).default([]),
});
export type SecurityScanReport = z.infer<typeof SecurityScanReport>;

/** Failed SSH attempts per source address (the user names tried added together). */
export function failedBySource(r: SecurityScanReport): Map<string, number> {
  const failed = new Map<string, number>();
  for (const e of r.events) if (e.kind === 'failed') failed.set(e.source, (failed.get(e.source) ?? 0) + e.count);
  return failed;
}

/** The findings of one report, most serious first (empty: nothing suspicious). */
export function securityFindings(r: SecurityScanReport): SecurityKind[] {
  const kinds: SecurityKind[] = [];
  if (r.events.some((e) => e.kind === 'login')) kinds.push('ssh-login');
  if ([...failedBySource(r).values()].some((n) => n >= BRUTE_FORCE_ATTEMPTS)) kinds.push('ssh-brute-force');
  if (r.sshOpen && !r.sshExpected) kinds.push('ssh-open');
  return kinds;
}
