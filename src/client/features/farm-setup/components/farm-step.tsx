/**
 * Step 2 (only when creating), the farm form. The page's Next button submits it (form id below): the farm is
 * created before moving on and its agentKey is kept for the later steps (spec 2 §4).
 */
import { type FormEvent, useState } from 'react';
import { Stack, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure } from '@client/lib/feedback';
import { CreateFarmBody } from '@shared/schemas/farm';
import { LIMITS } from '@shared/validation';
import { type NewFarmInput, useCreateSetupFarm } from '../api/farm-setup-api';

export const FARM_FORM_ID = 'new-mining-farm-form';

export function FarmStep({ onCreated, onBusy }: { onCreated: (agentKey: string, secret: string) => void; onBusy: (busy: boolean) => void }) {
  const { t } = useTranslation(['farm-setup', 'errors']);
  const create = useCreateSetupFarm();
  const [values, setValues] = useState<NewFarmInput>({ agentName: '', agentKey: '', noticeEmails: '', agentAddr: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof NewFarmInput, string>>>({});
  const set = (k: keyof NewFarmInput) => (v: string) => {
    setValues((p) => ({ ...p, [k]: v }));
    setErrors((p) => ({ ...p, [k]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = CreateFarmBody.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<keyof NewFarmInput, string>> = {};
      for (const issue of parsed.error.issues) {
        const k = issue.path[0] as keyof NewFarmInput;
        next[k] ??= /^validation\./.test(issue.message) ? t(`errors:${issue.message}`) : t('errors:validation.invalid');
      }
      setErrors(next);
      return;
    }
    onBusy(true);
    create.mutate(values, {
      onSuccess: (r) => onCreated(r.agentKey, r.secret),
      onError: (e) => {
        if (e instanceof ApiError && Object.keys(e.fields).length) setErrors(e.fields as Partial<Record<keyof NewFarmInput, string>>);
        else notifyFailure(e, t('farm-setup:feedback.failed'));
      },
      onSettled: () => onBusy(false),
    });
  };

  return (
    <form id={FARM_FORM_ID} onSubmit={submit} noValidate data-testid="step-farm">
      <Stack gap="sm" maw={560}>
        <TextInput label={t('farm-setup:farm.name')} required maxLength={LIMITS.farmNameMax + 10} value={values.agentName} onChange={(e) => set('agentName')(e.currentTarget.value)} error={errors.agentName} name="agentName" data-autofocus />
        <TextInput label={t('farm-setup:farm.key')} description={t('farm-setup:farm.keyHint')} required value={values.agentKey} onChange={(e) => set('agentKey')(e.currentTarget.value)} error={errors.agentKey} name="agentKey" autoCapitalize="off" spellCheck={false} />
        <TextInput label={t('farm-setup:farm.emails')} description={t('farm-setup:farm.emailsHint')} value={values.noticeEmails} onChange={(e) => set('noticeEmails')(e.currentTarget.value)} error={errors.noticeEmails} name="noticeEmails" />
        <Textarea label={t('farm-setup:farm.addr')} minRows={3} maxRows={6} autosize value={values.agentAddr} onChange={(e) => set('agentAddr')(e.currentTarget.value)} error={errors.agentAddr} name="agentAddr" />
      </Stack>
    </form>
  );
}
