/**
 * The verification-code step of a sensitive batch op: choose e-mail or SMS, send, 60 s countdown, enter the code.
 * It offers what the user can receive (spec 3 §5): e-mail when bound, SMS when a phone is bound outside area code 86
 * (which cannot receive it); with neither it says to bind one in the user center first, with a link there.
 * The last send is kept per user outside the component (this tab's sessionStorage, and memory when storage is off), so
 * a batch dialog closed and opened again within the minute continues the countdown instead of offering "Send code"
 * (which the server would refuse as too many requests). The server allows one send a minute per user, whichever
 * channel: the channel is kept with the send, and the countdown holds for both.
 */
import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { notifyFailure } from '@client/lib/feedback';
import { useCurrentUser } from '@client/lib/session-api';
import { usePhone } from '@client/lib/use-phone';
import { readStorage, writeStorage } from '@client/lib/safe-storage';
import { type SendCodeChannel, VERIFICATION_CODE_LENGTH, VERIFICATION_CODE_RESEND_SEC, VERIFICATION_CODE_TTL_SEC } from '@shared/schemas/batch-operations';
import { sendCode } from '../api/batch-api';
import { codeChannels, countdownLeft } from '../lib/batch-target';

const USER_CENTER = '/user/center';

/** A user's last code send: when (ms), by which channel, and the masked address it went to. */
interface LastSend {
  at: number;
  channel: SendCodeChannel;
  sentTo: string;
}

const LAST_SEND_PREFIX = 'hf.codeSent.';
const lastSends = new Map<string, LastSend>();

function isLastSend(v: unknown): v is LastSend {
  const o = v as Partial<LastSend> | null;
  return !!o && typeof o.at === 'number' && (o.channel === 'email' || o.channel === 'sms') && typeof o.sentTo === 'string';
}

/** The user's last send in this tab, or null (none, or storage unreadable). */
function lastCodeSend(userId: string): LastSend | null {
  const kept = lastSends.get(userId);
  if (kept) return kept;
  try {
    const v: unknown = JSON.parse(readStorage('session', LAST_SEND_PREFIX + userId) ?? 'null');
    return isLastSend(v) ? v : null;
  } catch {
    return null;
  }
}

function rememberCodeSend(userId: string, send: LastSend): void {
  lastSends.set(userId, send);
  writeStorage('session', LAST_SEND_PREFIX + userId, JSON.stringify(send));
}

/** Forgets the sends kept by this page, in memory and in sessionStorage (for tests). */
export function forgetCodeSends(): void {
  for (const userId of lastSends.keys()) writeStorage('session', LAST_SEND_PREFIX + userId, null);
  lastSends.clear();
}

export function VerificationCodeStep({ code, onCode, error }: { code: string; onCode: (code: string) => void; error?: string }) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  const user = useCurrentUser();
  const can = codeChannels(user.data);
  const [picked, setPicked] = useState<SendCodeChannel | null>(null);
  const channel: SendCodeChannel = picked ?? can.preferred ?? 'email';
  const userId = user.data?.id ?? '';
  const [sending, setSending] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const last = lastCodeSend(userId);
  const sentAt = last?.at ?? null;
  const left = countdownLeft(sentAt, now, VERIFICATION_CODE_RESEND_SEC);
  // "Code sent to …" while that code is still valid (also after the dialog was opened again).
  const sentTo = last && now - last.at < VERIFICATION_CODE_TTL_SEC * 1000 ? last.sentTo : null;
  const usable = channel === 'email' ? can.email : can.sms === 'ok';
  const counting = left > 0;

  useEffect(() => {
    if (!counting) return undefined;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [counting]);

  const send = async () => {
    setSending(true);
    try {
      const r = await sendCode(channel);
      rememberCodeSend(userId, { at: Date.now(), channel, sentTo: r.sentTo });
      setNow(Date.now());
    } catch (e) {
      notifyFailure(e, t('batch.dialog.failed'));
    } finally {
      setSending(false);
    }
  };

  const bindLink = (
    <Anchor component={Link} to={USER_CENTER} size="sm" data-testid="batch-code-bind-link">
      {t('batch.code.openUserCenter')}
    </Anchor>
  );

  return (
    <Stack gap="xs" data-testid="batch-code-step">
      <Text size="sm">{t('batch.code.hint')}</Text>
      {can.preferred === null ? (
        <Alert color="orange" py="xs" data-testid="batch-code-unbound">
          <Stack gap={4}>
            <Text size="sm">{can.sms === 'area86' ? t('batch.code.area86BindEmail') : t('batch.code.bindFirst')}</Text>
            {bindLink}
          </Stack>
        </Alert>
      ) : (
        <>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <SegmentedControl<SendCodeChannel>
              size={phone ? 'md' : 'xs'}
              value={channel}
              onChange={setPicked}
              data={[
                { value: 'email', label: t('batch.code.email'), disabled: !can.email },
                { value: 'sms', label: t('batch.code.sms'), disabled: can.sms !== 'ok' },
              ]}
              data-testid="batch-code-channel"
            />
            <Button size={phone ? 'sm' : 'xs'} variant="light" onClick={() => void send()} loading={sending} disabled={left > 0 || !usable} data-testid="batch-code-send">
              {left > 0 ? t('batch.code.resend', { seconds: left }) : t('batch.code.send')}
            </Button>
          </Group>
          {can.sms === 'area86' && (
            <Text size="xs" c="dimmed" data-testid="batch-code-area86">
              {t('batch.code.area86')}
            </Text>
          )}
        </>
      )}
      {sentTo && (
        <Text size="xs" c="dimmed" data-testid="batch-code-sent">
          {t('batch.code.sent', { to: sentTo })}
        </Text>
      )}
      <TextInput
        label={t('batch.code.label')}
        placeholder={t('batch.code.placeholder')}
        value={code}
        onChange={(e) => onCode(e.currentTarget.value.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH))}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={VERIFICATION_CODE_LENGTH}
        error={error}
        data-testid="batch-code-input"
      />
    </Stack>
  );
}
