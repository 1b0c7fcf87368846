import { Group, Modal, MultiSelect, PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import type { UserRow } from '@shared/schemas/access';
import { useAgentOptions, useRoleOptions } from '../api/get-options';
import { useSaveUser } from '../api/user-mutations';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { toSaveUserBody, userToFormValues, validateUserForm, type UserFormValues } from '../lib/user-form';
import { FormActions } from '@client/components/form-actions';

export interface UserFormDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Edit mode when given (password optional). */
  user?: UserRow;
}

function UserForm({ user, onClose }: { user?: UserRow; onClose: () => void }) {
  const { t } = useTranslation(['users', 'errors']);
  const mode = user ? 'edit' : 'create';
  const roles = useRoleOptions();
  const farms = useAgentOptions();
  const save = useSaveUser();

  const form = useForm<UserFormValues>({
    mode: 'controlled',
    initialValues: userToFormValues(user),
    validate: (values) => validateUserForm(values, mode),
  });
  const err = (field: keyof UserFormValues) => fieldMessage(t, form.errors[field]);

  const submit = form.onSubmit((values) =>
    save.mutate(toSaveUserBody(values, user?.id), {
      onSuccess: () => {
        notifySuccess(t('users:feedback.saveSuccess'));
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setErrors(error.fields);
        notifyFailure(error, t('users:feedback.failed'));
      },
    }),
  );

  const roleData = (roles.data ?? []).map((o) => ({ value: o.value, label: o.text }));
  const farmData = (farms.data ?? []).map((o) => ({ value: o.value, label: `${o.text} (${o.value})` }));
  // Farms the user already has but the editor cannot see stay selectable so they are not silently dropped.
  for (const key of form.values.agentKeys) if (!farmData.some((f) => f.value === key)) farmData.push({ value: key, label: key });

  return (
    <form onSubmit={submit} noValidate data-testid="user-form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('users:form.user')} description={t('users:form.userHelp')} withAsterisk autoComplete="off" name="user" {...form.getInputProps('user')} error={err('user')} />
          <PasswordInput
            label={t('users:form.password')}
            description={mode === 'edit' ? t('users:form.passwordKeep') : t('users:form.passwordHelp')}
            withAsterisk={mode === 'create'}
            autoComplete="new-password"
            name="password"
            {...form.getInputProps('password')}
            error={err('password')}
          />
          <TextInput label={t('users:form.email')} type="email" inputMode="email" autoComplete="off" name="email" {...form.getInputProps('email')} error={err('email')} />
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <TextInput
              label={t('users:form.areaCode')}
              leftSection="+"
              w={90}
              inputMode="numeric"
              name="areaCode"
              {...form.getInputProps('areaCode')}
              error={err('areaCode')}
            />
            <TextInput label={t('users:form.mobile')} inputMode="tel" autoComplete="off" style={{ flex: 1 }} name="mobile" {...form.getInputProps('mobile')} error={err('mobile')} />
          </Group>
        </SimpleGrid>
        <Select
          label={t('users:form.role')}
          placeholder={roles.isLoading ? t('users:form.loading') : t('users:form.rolePlaceholder')}
          data={roleData}
          withAsterisk
          searchable
          nothingFoundMessage={t('users:form.nothingFound')}
          comboboxProps={{ withinPortal: true }}
          name="roleId"
          {...form.getInputProps('roleId')}
          error={err('roleId')}
        />
        <MultiSelect
          label={t('users:form.farms')}
          description={t('users:form.farmsHelp')}
          placeholder={farms.isLoading ? t('users:form.loading') : t('users:form.farmsPlaceholder')}
          data={farmData}
          searchable
          clearable
          hidePickedOptions
          nothingFoundMessage={t('users:form.nothingFound')}
          name="agentKeys"
          {...form.getInputProps('agentKeys')}
          error={err('agentKeys')}
        />
        <Switch label={t('users:form.disabled')} description={t('users:form.disabledHelp')} name="disabled" {...form.getInputProps('disabled', { type: 'checkbox' })} />
        <FormActions cancel={t('users:actions.cancel')} onCancel={onClose} submit={t('users:actions.save')} pending={save.isPending} />
      </Stack>
    </form>
  );
}

/** Create or edit a user: account, password, contacts, role and farms. */
export function UserFormDialog({ opened, onClose, user }: UserFormDialogProps) {
  const { t } = useTranslation('users');
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={user ? t('form.editTitle') : t('form.createTitle')} size={720} fullScreen={phone} data-testid="user-form-dialog">
      {opened && <UserForm key={user?.id ?? 'new'} user={user} onClose={onClose} />}
    </Modal>
  );
}
