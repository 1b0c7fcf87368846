import { describe, expect, it, vi } from 'vitest';
import { createMailSender, createSmsProvider, httpSmsProvider, logOnlySmsProvider, maskEmail, maskMobile } from './message-senders';

const silentLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn(), trace: vi.fn(), fatal: vi.fn(), child: vi.fn(), level: 'info', silent: vi.fn() });

describe('verification code senders', () => {
  it('masks addresses', () => {
    expect(maskMobile('44', '7700900123')).toBe('+44 ***0123');
    expect(maskEmail('operator@farm.example')).toBe('o***@farm.example');
    expect(maskEmail('broken')).toBe('***');
  });

  it('logs that an SMS was sent without the text (log-only provider, the default)', async () => {
    const log = silentLog();
    const p = createSmsProvider({ smsHttpUrl: null, smsHttpToken: null }, log as never);
    expect(p.name).toBe('log');
    await p.send({ areaCode: '44', mobile: '7700900123', text: 'Your code is 123456' });
    expect(log.info).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(log.info.mock.calls)).not.toContain('123456');
    expect(logOnlySmsProvider(log as never).name).toBe('log');
  });

  it('posts JSON with the bearer token to the HTTP provider and fails on a non-2xx answer', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    let status = 200;
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response('{}', { status });
    }) as unknown as typeof fetch;
    const p = httpSmsProvider('https://sms.example/send', 'tok', fakeFetch);
    await p.send({ areaCode: '1', mobile: '5551234567', text: 'code 654321' });
    expect(calls[0]?.url).toBe('https://sms.example/send');
    expect((calls[0]?.init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ to: '+15551234567', areaCode: '1', mobile: '5551234567', text: 'code 654321' });
    status = 502;
    await expect(p.send({ areaCode: '1', mobile: '5551234567', text: 'x' })).rejects.toThrow(/502/);
  });

  it('has no mail sender without SMTP_URL', () => {
    expect(createMailSender({ smtpUrl: null, mailFrom: 'a@b.c' })).toBeNull();
    expect(createMailSender({ smtpUrl: 'smtp://127.0.0.1:2525', mailFrom: 'a@b.c' })?.name).toBe('smtp');
  });
});
