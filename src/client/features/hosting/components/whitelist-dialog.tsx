import { Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { POOL_WHITELIST_MAX } from '@shared/pool-sites';
import type { PoolWhitelistEntry } from '@shared/schemas/pool';
import { useSaveWhitelist } from '../api/pools-api';
import { type WhitelistFormValues, validateWhitelistForm } from '../lib/pool-forms';
import { FormActions } from '@client/components/form-actions';

export interface WhitelistDialogProps {
  opened: boolean;
  agentKey: string;
  entry?: PoolWhitelistEntry;
  onClose: () => void;
}

function WhitelistForm({ agentKey, entry, onClose }: Omit<WhitelistDialogProps, 'opened'>) {
  const { t } = useTranslation(['pools', 'errors']);
  const save = useSaveWhitelist();
  const initial = entry ? entry.poolUrls.split(',') : [];
  const form = useForm<WhitelistFormValues>({
    mode: 'controlled',
    initialValues: { urls: Array.from({ length: POOL_WHITELIST_MAX }, (_, i) => initial[i] ?? '') },
    validate: validateWhitelistForm,
  });
  const submit = form.onSubmit((values) => {
    const poolUrls = values.urls.map((u) => u.trim()).filter((u) => u !== '').join(',');
    save.mutate(
      { agentKey, ...(entry ? { id: entry.id } : {}), poolUrls },
      {
        onSuccess: () => {
          notifySuccess(t('pools:feedback.saveSuccess'));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields.poolUrls) form.setFieldError('urls.0', error.fields.poolUrls);
          notifyFailure(error, t('pools:feedback.failed'));
        },
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate data-testid="whitelist-form">
      <Stack gap="sm">
        {form.values.urls.map((_, i) => (
          <TextInput
            key={i}
            label={t('pools:whitelist.poolUrl', { n: i + 1 })}
            withAsterisk={i === 0}
            placeholder="stratum+tcp://"
            spellCheck={false}
            name={`urls.${i}`}
            data-autofocus={i === 0 ? true : undefined}
            {...form.getInputProps(`urls.${i}`)}
            error={fieldMessage(t, form.errors[`urls.${i}`])}
          />
        ))}
        <FormActions cancel={t('pools:actions.cancel')} onCancel={onClose} submit={t('pools:actions.save')} pending={save.isPending} />
      </Stack>
    </form>
  );
}

/** Add or edit a whitelist entry: up to 3 pools a miner may use together (spec 2 §5, §9). */
export function WhitelistDialog({ opened, agentKey, entry, onClose }: WhitelistDialogProps) {
  const { t } = useTranslation('pools');
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={entry ? t('whitelist.editTitle') : t('whitelist.createTitle')} size={640} fullScreen={phone} data-testid="whitelist-dialog">
      {opened && <WhitelistForm key={entry?.id ?? 'new'} agentKey={agentKey} entry={entry} onClose={onClose} />}
    </Modal>
  );
}
