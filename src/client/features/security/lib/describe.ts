/**
 * The description of a suspicious-SSH record (spec 3 §3 "description"), written in the reader's language from what
 * the scan saw: logins per source, runs of failed passwords, an SSH service answering. One line each, most serious
 * first, as the record's kinds are ordered.
 */
import type { TFunction } from 'i18next';
import { BRUTE_FORCE_ATTEMPTS, type SecurityKind, type SecurityScanReport, failedBySource } from '@shared/security-scan';

export function describeSecurity(t: TFunction<'security'>, r: { kinds: readonly SecurityKind[]; report: SecurityScanReport }): string[] {
  const lines: string[] = [];
  const failed = failedBySource(r.report);
  for (const kind of r.kinds) {
    if (kind === 'ssh-login') {
      for (const e of r.report.events) {
        if (e.kind !== 'login') continue;
        lines.push(e.user ? t('desc.loginAs', { count: e.count, source: e.source, user: e.user }) : t('desc.login', { count: e.count, source: e.source }));
      }
    } else if (kind === 'ssh-brute-force') {
      for (const [source, count] of failed) if (count >= BRUTE_FORCE_ATTEMPTS) lines.push(t('desc.bruteForce', { count, source }));
    } else {
      lines.push(r.report.banner ? t('desc.openBanner', { banner: r.report.banner }) : t('desc.open'));
    }
  }
  for (const [source, count] of failed) if (count < BRUTE_FORCE_ATTEMPTS) lines.push(t('desc.failed', { count, source }));
  if (!r.report.logRead) lines.push(t('desc.logUnread'));
  return lines;
}
