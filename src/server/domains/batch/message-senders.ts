/**
 * Delivery of verification codes: e-mail through nodemailer (SMTP_URL, MAIL_FROM) and SMS through a
 * provider adapter. The default SMS provider only logs that a code was sent (never the code); the HTTP
 * provider POSTs JSON { to, areaCode, mobile, text } to SMS_HTTP_URL with `Authorization: Bearer
 * SMS_HTTP_TOKEN` and treats any 2xx answer as delivered.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { ServerConfig } from '../../config';

export interface SmsMessage {
  areaCode: string;
  mobile: string;
  text: string;
}

export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface MailSender {
  readonly name: string;
  send(message: MailMessage): Promise<void>;
}

/** "+44 ***4567": enough to recognise the number, never the whole of it. */
export function maskMobile(areaCode: string, mobile: string): string {
  return `+${areaCode} ***${mobile.slice(-4)}`;
}

/** "a***@example.com". */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

export function logOnlySmsProvider(log: FastifyBaseLogger): SmsProvider {
  return {
    name: 'log',
    send: async (m) => {
      log.info({ channel: 'sms', to: maskMobile(m.areaCode, m.mobile) }, 'verification code sent (log-only SMS provider; set SMS_HTTP_URL to deliver)');
    },
  };
}

export function httpSmsProvider(url: string, token: string | null, fetchImpl: typeof fetch = fetch): SmsProvider {
  return {
    name: 'http',
    send: async (m) => {
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ to: `+${m.areaCode}${m.mobile}`, areaCode: m.areaCode, mobile: m.mobile, text: m.text }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS provider answered HTTP ${res.status}`);
    },
  };
}

export function createSmsProvider(config: Pick<ServerConfig, 'smsHttpUrl' | 'smsHttpToken'>, log: FastifyBaseLogger): SmsProvider {
  return config.smsHttpUrl ? httpSmsProvider(config.smsHttpUrl, config.smsHttpToken) : logOnlySmsProvider(log);
}

/** null when SMTP_URL is not set (e-mail codes unavailable). */
export function createMailSender(config: Pick<ServerConfig, 'smtpUrl' | 'mailFrom'>): MailSender | null {
  if (!config.smtpUrl) return null;
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    name: 'smtp',
    send: async (m) => {
      await transport.sendMail({ from: config.mailFrom, to: m.to, subject: m.subject, text: m.text });
    },
  };
}
