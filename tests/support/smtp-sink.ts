/**
 * A local SMTP sink for tests of mail (verification codes, approval requests): it accepts every message on loopback
 * and keeps its raw text, so a test reads the code or link a user would get. The server under test is pointed at it
 * with SMTP_URL / smtpUrl.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Each message received, raw (headers and body), oldest first. */
  mails: string[];
  close(): Promise<void>;
}

/** `mails`: the array the messages are pushed to (a test's own, declared before the sink starts), or a new one. */
export async function startSmtpSink(mails: string[] = []): Promise<SmtpSink> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(Buffer.concat(chunks).toString('utf8'));
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
