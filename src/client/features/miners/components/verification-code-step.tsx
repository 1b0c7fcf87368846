/**
 * The verification-code step of a sensitive batch op: choose e-mail or SMS, send, 60 s countdown, enter the code.
 * It offers what the user can receive (spec 3 §5): e-mail when bound, SMS when a phone is bound outside area code 86
 * (which cannot receive it); with neither it says to bind one in the user center first, with a link there.
 */
import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { notifyFailure } from '@client/lib/feedback';
import { useCurrentUser } from '@client/lib/session-api';
import { usePhone } from '@client/lib/use-phone';
import { type SendCodeChannel, VERIFICATION_CODE_LENGTH, VERIFICATION_CODE_RESEND_SEC } from '@shared/schemas/batch-operations';
import { sendCode } from '../api/batch-api';
import { codeChannels, countdownLeft } from '../lib/batch-target';

const USER_CENTER = '/user/center';

export function VerificationCodeStep({ code, onCode, error }: { code: string; onCode: (code: string) => void; error?: string }) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  const user = useCurrentUser();
  const can = codeChannels(user.data);
  const [picked, setPicked] = useState<SendCodeChannel | null>(null);
  const channel: SendCodeChannel = picked ?? can.preferred ?? 'email';
  const [sentAt, setSentAt] = useState<number | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const left = countdownLeft(sentAt, now, VERIFICATION_CODE_RESEND_SEC);
  const usable = channel === 'email' ? can.email : can.sms === 'ok';

  useEffect(() => {
    if (sentAt === null) return undefined;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [sentAt]);

  const send = async () => {
    setSending(true);
    try {
      const r = await sendCode(channel);
      setSentTo(r.sentTo);
      setSentAt(Date.now());
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
