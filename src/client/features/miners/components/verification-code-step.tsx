/** The verification-code step of a sensitive batch op: choose e-mail or SMS, send, 60 s countdown, enter the code. */
import { useEffect, useState } from 'react';
import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifyFailure } from '@client/lib/feedback';
import { type SendCodeChannel, VERIFICATION_CODE_LENGTH, VERIFICATION_CODE_RESEND_SEC } from '@shared/schemas/batch-operations';
import { sendCode } from '../api/batch-api';
import { countdownLeft } from '../lib/batch-target';

export function VerificationCodeStep({ code, onCode, error }: { code: string; onCode: (code: string) => void; error?: string }) {
  const { t } = useTranslation('miners');
  const [channel, setChannel] = useState<SendCodeChannel>('email');
  const [sentAt, setSentAt] = useState<number | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const left = countdownLeft(sentAt, now, VERIFICATION_CODE_RESEND_SEC);

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

  return (
    <Stack gap="xs" data-testid="batch-code-step">
      <Text size="sm">{t('batch.code.hint')}</Text>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <SegmentedControl<SendCodeChannel>
          size="xs"
          value={channel}
          onChange={setChannel}
          data={[
            { value: 'email', label: t('batch.code.email') },
            { value: 'sms', label: t('batch.code.sms') },
          ]}
        />
        <Button size="xs" variant="light" onClick={() => void send()} loading={sending} disabled={left > 0} data-testid="batch-code-send">
          {left > 0 ? t('batch.code.resend', { seconds: left }) : t('batch.code.send')}
        </Button>
      </Group>
      {sentTo && (
        <Text size="xs" c="dimmed" data-testid="batch-code-sent">
          {t('batch.code.sent', { to: sentTo })}
        </Text>
      )}
      <TextInput
        label={t('batch.code.label')}
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
