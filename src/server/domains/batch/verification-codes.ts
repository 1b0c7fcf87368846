/**
 * Verification codes for sensitive batch operations (spec 3 §5, spec 1 §6): six digits, stored as a
 * hash, valid ten minutes, five attempts, used once; a new code replaces the user's previous ones.
 * Sending is rate-limited per user (one per minute, ten per hour).
 */
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import {
  type SendCodeChannel,
  type SendCodeResult,
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_RESEND_SEC,
  VERIFICATION_CODE_TTL_SEC,
} from '@shared/schemas/batch-operations';
import type { Locale } from '@shared/validation';
import type { DB } from '../../db/kysely';
import type { UserRecord } from '../../db/schema';
import { AppError } from '../../errors';
import { translate } from '../../i18n';
import { checkRateLimit, recordRateHit } from '../../plugins/rate-limit';
import { sha256 } from '../../security';
import { type MailSender, type SmsProvider, maskEmail, maskMobile } from './message-senders';

export const BATCH_CODE_PURPOSE = 'batch';
const RESEND_RULE = { max: 1, windowSec: VERIFICATION_CODE_RESEND_SEC };
const HOURLY_RULE = { max: 10, windowSec: 3600 };

const hashCode = (userId: string, code: string) => sha256(`${userId}:${code}`);

export function newCode(): string {
  return String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
}

/** Area codes are stored as digits; "+86" / "0086" are the same. */
export function normaliseAreaCode(areaCode: string): string {
  return areaCode.replace(/\D/g, '').replace(/^00/, '');
}

export interface SendCodeDeps {
  db: DB;
  mail: MailSender | null;
  sms: SmsProvider;
  log: FastifyBaseLogger;
  locale: Locale;
}

export async function sendVerificationCode(deps: SendCodeDeps, user: UserRecord, channel: SendCodeChannel): Promise<SendCodeResult> {
  const { db } = deps;
  let sentTo: string;
  let deliver: (text: string, subject: string) => Promise<void>;
  let provider: string;
  if (channel === 'email') {
    if (!user.email) throw new AppError('emailNotBound');
    const mail = deps.mail;
    if (!mail) throw new AppError('mailUnavailable');
    const to = user.email;
    sentTo = maskEmail(to);
    provider = mail.name;
    deliver = (text, subject) => mail.send({ to, subject, text });
  } else {
    if (!user.mobile) throw new AppError('mobileNotBound');
    const areaCode = normaliseAreaCode(user.area_code);
    if (areaCode === '86') throw new AppError('smsAreaUnsupported');
    const mobile = user.mobile;
    sentTo = maskMobile(areaCode, mobile);
    provider = deps.sms.name;
    deliver = (text) => deps.sms.send({ areaCode, mobile, text });
  }

  await checkRateLimit(db, `code-min:${user.id}`, RESEND_RULE);
  await checkRateLimit(db, `code-hour:${user.id}`, HOURLY_RULE);

  const code = newCode();
  const minutes = Math.round(VERIFICATION_CODE_TTL_SEC / 60);
  const row = await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('verification_codes').where('user_id', '=', user.id).where('purpose', '=', BATCH_CODE_PURPOSE).where('used_at', 'is', null).execute();
    return trx
      .insertInto('verification_codes')
      .values({
        user_id: user.id,
        purpose: BATCH_CODE_PURPOSE,
        channel,
        code_hash: hashCode(user.id, code),
        expires_at: new Date(Date.now() + VERIFICATION_CODE_TTL_SEC * 1000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  });

  try {
    await deliver(translate(deps.locale, 'verificationMail.text', { code, minutes }), translate(deps.locale, 'verificationMail.subject'));
  } catch (err) {
    await db.deleteFrom('verification_codes').where('id', '=', row.id).execute();
    await db
      .insertInto('message_outbox')
      .values({ user_id: user.id, channel, recipient: sentTo, purpose: BATCH_CODE_PURPOSE, provider, status: 'failed', error: String((err as Error).message ?? err).slice(0, 500) })
      .execute();
    deps.log.warn({ channel, to: sentTo, err: (err as Error).message }, 'verification code not delivered');
    throw new AppError(channel === 'email' ? 'mailUnavailable' : 'smsUnavailable');
  }
  await db.insertInto('message_outbox').values({ user_id: user.id, channel, recipient: sentTo, purpose: BATCH_CODE_PURPOSE, provider, status: 'sent', error: null }).execute();
  await recordRateHit(db, `code-min:${user.id}`);
  await recordRateHit(db, `code-hour:${user.id}`);
  return { channel, sentTo, expiresInSec: VERIFICATION_CODE_TTL_SEC, resendAfterSec: VERIFICATION_CODE_RESEND_SEC };
}

/** Consumes the user's current code: missing → codeRequired; wrong, expired, used or out of attempts → codeWrong. */
export async function consumeVerificationCode(db: DB, userId: string, code: string | undefined): Promise<void> {
  if (!code) throw new AppError('codeRequired');
  const row = await db
    .selectFrom('verification_codes')
    .select(['id', 'code_hash'])
    .where('user_id', '=', userId)
    .where('purpose', '=', BATCH_CODE_PURPOSE)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .where('attempts', '<', VERIFICATION_CODE_MAX_ATTEMPTS)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row) throw new AppError('codeWrong');
  if (row.code_hash !== hashCode(userId, code)) {
    await db.updateTable('verification_codes').set({ attempts: sql`attempts + 1` }).where('id', '=', row.id).execute();
    throw new AppError('codeWrong');
  }
  const used = await db.updateTable('verification_codes').set({ used_at: new Date() }).where('id', '=', row.id).where('used_at', 'is', null).returning('id').executeTakeFirst();
  if (!used) throw new AppError('codeWrong');
}
