import { useState } from 'react';
import { Alert, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import type { RoleRow } from '@shared/schemas/access';
import { useSaveRole } from '../api/roles';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { serializePermissions } from '../lib/permission-matrix';
import { validateRoleForm, type RoleFormValues } from '../lib/role-form';
import { usePhone } from '@client/lib/use-phone';
import { PermissionMatrix } from './permission-matrix';
import { FormActions } from '@client/components/form-actions';

export interface RoleFormDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Edit mode when given; a built-in role is shown read-only. */
  role?: RoleRow;
  /** View only (the user lacks the operation key); built-in roles are always read-only. */
  readOnly?: boolean;
}

function RoleForm({ role, onClose, readOnly }: { role?: RoleRow; onClose: () => void; readOnly: boolean }) {
  const { t } = useTranslation(['roles', 'errors']);
  const save = useSaveRole();
  const [permissions, setPermissions] = useState<Set<number>>(() => new Set(role?.permissions ?? []));
  const [matrixError, setMatrixError] = useState<string | null>(null);

  const form = useForm<RoleFormValues>({
    mode: 'controlled',
    initialValues: { name: role?.name ?? '', remark: role?.remark ?? '' },
    validate: validateRoleForm,
  });
  const err = (field: keyof RoleFormValues) => fieldMessage(t, form.errors[field]);

  const submit = form.onSubmit((values) => {
    const serialized = serializePermissions(permissions);
    if (serialized === '') {
      setMatrixError(t('roles:matrix.noneSelected'));
      return;
    }
    save.mutate(
      { ...(role ? { id: role.id } : {}), name: values.name.trim(), remark: values.remark.trim(), permissions: serialized },
      {
        onSuccess: () => {
          notifySuccess(t('roles:feedback.saveSuccess'));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setErrors(error.fields);
          notifyFailure(error, t('roles:feedback.failed'));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate data-testid="role-form">
      <Stack gap="sm">
        {readOnly && (
          <Alert color="gray" icon={<IconLock size={16} />}>
            {role?.builtin ? t('roles:form.builtinReadOnly') : t('roles:form.noPermission')}
          </Alert>
        )}
        <TextInput label={t('roles:form.name')} withAsterisk disabled={readOnly} autoComplete="off" name="name" {...form.getInputProps('name')} error={err('name')} />
        <Textarea label={t('roles:form.remark')} autosize minRows={2} maxRows={4} disabled={readOnly} name="remark" {...form.getInputProps('remark')} error={err('remark')} />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('roles:matrix.title')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('roles:matrix.help')}
          </Text>
          <PermissionMatrix
            value={permissions}
            readOnly={readOnly}
            onChange={(next) => {
              setPermissions(next);
              setMatrixError(null);
            }}
          />
          {matrixError && (
            <Text size="sm" c="red" role="alert">
              {matrixError}
            </Text>
          )}
        </Stack>
        <FormActions
          cancel={readOnly ? t('roles:actions.close') : t('roles:actions.cancel')}
          onCancel={onClose}
          submit={readOnly ? undefined : t('roles:actions.save')}
          pending={save.isPending}
        />
      </Stack>
    </form>
  );
}

/** Create or edit a role with its permission matrix. */
export function RoleFormDialog({ opened, onClose, role, readOnly = false }: RoleFormDialogProps) {
  const { t } = useTranslation('roles');
  const phone = usePhone();
  const viewOnly = readOnly || Boolean(role?.builtin);
  const title = role ? (viewOnly ? t('form.viewTitle') : t('form.editTitle')) : t('form.createTitle');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={720} fullScreen={phone} data-testid="role-form-dialog">
      {opened && <RoleForm key={role?.id ?? 'new'} role={role} onClose={onClose} readOnly={viewOnly} />}
    </Modal>
  );
}
