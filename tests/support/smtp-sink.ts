/**
 * A local SMTP sink for tests of mail (verification codes, approval requests): it accepts every message on loopback
 * and keeps its raw text, so a test reads the code or link a user would get. The server under test is pointed at it
 * with SMTP_URL / smtpUrl.
 */
import { startMailCatcher } from '@sim/services/mail-catcher';

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Each message received, raw (headers and body), oldest first. */
  mails: string[];
  close(): Promise<void>;
}

/** `mails`: the array the messages are pushed to (a test's own, declared before the sink starts), or a new one. */
export async function startSmtpSink(mails: string[] = []): Promise<SmtpSink> {
  const catcher = await startMailCatcher((m) => mails.push(m.raw));
  return { url: catcher.url, mails, close: () => catcher.close() };
}
