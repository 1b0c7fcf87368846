import { Button, Group, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import type { FarmInfo, FarmSecret } from '@shared/schemas/farm';
import { useCreateFarm, useUpdateFarm } from '../api/farm-mutations';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { farmToFormValues, toFarmBody, validateFarmForm, type FarmFormValues } from '../lib/farm-form';

export type FarmSaved = { mode: 'create'; secret: FarmSecret } | { mode: 'edit'; info: FarmInfo };

export interface FarmFormProps {
  /** The farm being edited; create mode when left out. */
  farm?: FarmInfo;
  onSaved: (saved: FarmSaved) => void;
  onCancel?: () => void;
  /** Shows the values without letting them change (the user lacks the operation key). */
  readOnly?: boolean;
}

const FORM_FIELDS = ['agentName', 'agentKey', 'noticeEmails', 'agentAddr', 'selfManaged'] as const;

/** Farm fields (spec 2 §5 Farm rules) with client validation, server field errors and the save call. */
export function FarmForm({ farm, onSaved, onCancel, readOnly = false }: FarmFormProps) {
  const { t } = useTranslation(['farms', 'errors']);
  const mode = farm ? 'edit' : 'create';
  const createFarm = useCreateFarm();
  const updateFarm = useUpdateFarm();
  const pending = createFarm.isPending || updateFarm.isPending;

  const form = useForm<FarmFormValues>({
    mode: 'controlled',
    initialValues: farmToFormValues(farm),
    validate: (values) => validateFarmForm(values, mode),
  });

  const err = (field: keyof FarmFormValues) => fieldMessage(t, form.errors[field]);

  const onFailure = (error: unknown) => {
    // A problem of a field (an agent key already taken) is shown under it; a notification said it twice.
    const shown = error instanceof ApiError && FORM_FIELDS.some((f) => error.fields[f]);
    if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setErrors(error.fields);
    if (!shown) notifyFailure(error, t('farms:feedback.failed'));
  };

  const submit = form.onSubmit((values) => {
    const body = toFarmBody(values);
    if (mode === 'create') {
      createFarm.mutate(body, {
        onSuccess: (secret) => {
          notifySuccess(t('farms:feedback.saveSuccess'));
          onSaved({ mode: 'create', secret });
        },
        onError: onFailure,
      });
    } else {
      updateFarm.mutate(body, {
        onSuccess: (info) => {
          notifySuccess(t('farms:feedback.saveSuccess'));
          form.resetDirty(farmToFormValues(info));
          onSaved({ mode: 'edit', info });
        },
        onError: onFailure,
      });
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="farm-form">
      <fieldset disabled={readOnly} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
      <Stack gap="sm">
        <TextInput
          label={t('farms:form.agentName')}
          placeholder={t('farms:form.agentNamePlaceholder')}
          withAsterisk
          autoComplete="off"
          name="agentName"
          {...form.getInputProps('agentName')}
          error={err('agentName')}
        />
        <TextInput
          label={t('farms:form.agentKey')}
          description={mode === 'edit' ? t('farms:form.agentKeyLocked') : t('farms:form.agentKeyHelp')}
          placeholder={t('farms:form.agentKeyPlaceholder')}
          withAsterisk
          autoComplete="off"
          name="agentKey"
          disabled={mode === 'edit'}
          {...form.getInputProps('agentKey')}
          error={err('agentKey')}
        />
        <TextInput
          label={t('farms:form.noticeEmails')}
          description={t('farms:form.noticeEmailsHelp')}
          placeholder="ops@example.com, manager@example.com"
          autoComplete="off"
          inputMode="email"
          name="noticeEmails"
          {...form.getInputProps('noticeEmails')}
          error={err('noticeEmails')}
        />
        <Textarea
          label={t('farms:form.agentAddr')}
          placeholder={t('farms:form.agentAddrPlaceholder')}
          autosize
          minRows={3}
          maxRows={6}
          name="agentAddr"
          {...form.getInputProps('agentAddr')}
          error={err('agentAddr')}
        />
        <Switch
          label={t('farms:form.selfManaged')}
          description={t('farms:form.selfManagedHelp')}
          name="selfManaged"
          {...form.getInputProps('selfManaged', { type: 'checkbox' })}
        />
        {!readOnly && (
        <Group justify="flex-end" mt="xs">
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={pending}>
              {t('farms:actions.cancel')}
            </Button>
          )}
          <Button type="submit" loading={pending}>
            {mode === 'create' ? t('farms:actions.create') : t('farms:actions.save')}
          </Button>
        </Group>
        )}
      </Stack>
      </fieldset>
    </form>
  );
}
