import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { type CaughtMail, decodeHeader, startMailCatcher } from './mail-catcher';

describe('demo mail catcher', () => {
  it('hands over what nodemailer sends, subject and text decoded (Chinese, base64 or quoted-printable)', async () => {
    const got: CaughtMail[] = [];
    const catcher = await startMailCatcher((m) => got.push(m));
    try {
      const transport = nodemailer.createTransport(catcher.url);
      await transport.sendMail({ from: 'hashfield@localhost', to: 'demo@example.com', subject: 'Hashfield 验证码', text: '您的验证码是 482913，10 分钟内有效。' });
      await transport.sendMail({ from: 'hashfield@localhost', to: 'ops@example.com', subject: 'Verification code', text: 'Your code is 105577, valid for 10 minutes. Überprüfung' });
      for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(got[0]).toMatchObject({ to: ['demo@example.com'], subject: 'Hashfield 验证码', text: '您的验证码是 482913，10 分钟内有效。' });
      expect(got[1]).toMatchObject({ to: ['ops@example.com'], subject: 'Verification code', text: 'Your code is 105577, valid for 10 minutes. Überprüfung' });
      expect(got[1]!.raw).toContain('To: ops@example.com');
    } finally {
      await catcher.close();
    }
  });

  it('decodes encoded words of a header and leaves plain text alone', () => {
    expect(decodeHeader('=?UTF-8?B?6aqM6K+B56CB?=')).toBe('验证码');
    expect(decodeHeader('=?UTF-8?Q?K=C3=B3d?=')).toBe('Kód');
    expect(decodeHeader('Plain subject')).toBe('Plain subject');
  });
});
