/**
 * The demo's mailbox: an SMTP server on loopback that takes every message the console sends (verification codes of
 * sensitive batch operations, approval requests) and hands it to `onMail` with its recipients, subject and text decoded,
 * so `npm run demo` can print them (the tests' mail sinks read the same). Without it a demo user could not complete a sensitive operation: codes go by
 * e-mail only when SMTP_URL is set, and the log-only SMS provider never logs a code.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  /** The message as received (headers and body). */
  raw: string;
}

export interface MailCatcher {
  /** smtp://127.0.0.1:<port>, for the server's SMTP_URL. */
  url: string;
  close(): Promise<void>;
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= / ?Q?) of a header, decoded. */
export function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_m, _charset: string, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A single-part text message (what the server's nodemailer sends) as recipients, subject and text. */
export function parseMail(raw: string, to: string[]): CaughtMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).trim();
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body;
  return { to, subject: decodeHeader(header('Subject')), text: text.trim(), raw };
}

export async function startMailCatcher(onMail: (mail: CaughtMail) => void): Promise<MailCatcher> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        onMail(parseMail(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((r) => r.address)));
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
