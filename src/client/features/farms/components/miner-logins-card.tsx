/**
 * The farm's miner logins (farm settings): per firmware, the users and passwords the farm's agent tries on miners whose
 * password is not the factory default, in order, before the defaults. Passwords are write-only here: the list shows
 * the user and a mask, editing leaves the password as it is unless a new one is typed.
 */
import { useState } from 'react';
import { Badge, Button, Card, Group, Modal, PasswordInput, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '@client/components/form-actions';
import { EditDeleteActions } from '@client/components/row-actions';
import { ApiError } from '@client/lib/api-client';
import { confirmDeletion, fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { MINER_LOGIN_DEFAULT_USER, MINER_LOGIN_FAMILIES, MINER_LOGINS_PER_FAMILY, type MinerLoginFamily, type MinerLoginRow } from '@shared/schemas/miner-logins';
import { useDeleteMinerLogin, useMinerLogins, useSaveMinerLogin } from '../api/miner-logins';
import { LoadErrorAlert } from './load-error-alert';

interface FormValues {
  family: MinerLoginFamily;
  user: string;
  password: string;
}

const FORM_FIELDS = ['family', 'user', 'password'] as const;

function LoginDialog({ agentKey, login, onClose }: { agentKey: string; login: MinerLoginRow | null; onClose: () => void }) {
  const { t } = useTranslation(['farms', 'errors']);
  const save = useSaveMinerLogin();
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: { family: login?.family ?? 'antminer', user: login?.user ?? '', password: '' },
    validate: {
      password: (v) => (login === null && v === '' ? 'validation.minerLoginPasswordRequired' : v.length > 64 ? 'validation.minerLoginPassword' : null),
      user: (v) => (v.trim().length > 32 ? 'validation.minerLoginUser' : null),
    },
  });
  const err = (field: keyof FormValues) => fieldMessage(t, form.errors[field]);
  const family = form.values.family;
  const submit = form.onSubmit((values) =>
    save.mutate(
      { agentKey, ...(login ? { id: login.id } : {}), family: values.family, user: values.user.trim(), password: values.password },
      {
        onSuccess: () => {
          notifySuccess(t('farms:feedback.saveSuccess'));
          onClose();
        },
        onError: (error) => {
          // A problem of a field (the limit of a firmware, a duplicate) is shown under it; a notification said it twice.
          const shown = error instanceof ApiError && FORM_FIELDS.some((f) => error.fields[f]);
          if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setErrors(error.fields);
          if (!shown) notifyFailure(error, t('farms:feedback.failed'));
        },
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate data-testid="miner-login-form">
      <Stack gap="sm">
        <Select
          label={t('farms:minerLogins.family')}
          withAsterisk
          allowDeselect={false}
          data={MINER_LOGIN_FAMILIES.map((f) => ({ value: f, label: t(`farms:minerLogins.families.${f}`) }))}
          value={family}
          onChange={(v) => v && form.setFieldValue('family', v as MinerLoginFamily)}
          error={err('family')}
          data-testid="miner-login-family"
        />
        <TextInput
          label={t('farms:minerLogins.user')}
          description={t(`farms:minerLogins.userHelp.${family}`)}
          name="minerUser"
          autoComplete="off"
          placeholder={MINER_LOGIN_DEFAULT_USER[family] || undefined}
          {...form.getInputProps('user')}
          error={err('user')}
        />
        <PasswordInput
          label={t('farms:minerLogins.password')}
          withAsterisk={login === null}
          name="minerPassword"
          autoComplete="new-password"
          placeholder={login ? t('farms:minerLogins.passwordKeep') : undefined}
          data-autofocus
          {...form.getInputProps('password')}
          error={err('password')}
        />
        <FormActions cancel={t('farms:actions.cancel')} onCancel={onClose} submit={t('farms:actions.save')} pending={save.isPending} submitTestId="miner-login-save" />
      </Stack>
    </form>
  );
}

export function MinerLoginsCard({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('farms');
  const phone = usePhone();
  const logins = useMinerLogins(agentKey);
  const remove = useDeleteMinerLogin(agentKey);
  const [dialog, setDialog] = useState<{ login: MinerLoginRow | null } | null>(null);
  const familyName = (f: MinerLoginFamily) => t(`minerLogins.families.${f}`);
  const subject = (l: MinerLoginRow) => `${familyName(l.family)} ${l.user || t('minerLogins.noUser')}`;
  const rows = logins.data ?? [];

  return (
    <Card withBorder padding="md" data-testid="miner-logins-card">
      <Group justify="space-between" mb={4} wrap="wrap" gap="xs">
        <Title order={5}>{t('minerLogins.title')}</Title>
        {canOperate && (
          <Button size={phone ? 'sm' : 'xs'} variant="light" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ login: null })} data-testid="miner-login-add">
            {t('minerLogins.add')}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('minerLogins.help', { max: MINER_LOGINS_PER_FAMILY })}
      </Text>
      {logins.isPending ? (
        <Skeleton h={72} />
      ) : logins.isError ? (
        <LoadErrorAlert title={t('minerLogins.loadError')} error={logins.error} onRetry={() => logins.refetch()} />
      ) : rows.length === 0 ? (
        <Text size="sm" data-testid="miner-logins-empty">
          {t('minerLogins.empty')}
        </Text>
      ) : (
        <Stack gap={6} data-testid="miner-logins-list">
          {rows.map((l, i) => (
            <Group key={l.id} justify="space-between" wrap="nowrap" gap="xs" py={4} style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-gray-2)' }} data-testid="miner-login-row">
              <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
                <Badge variant="light" size="sm" tt="none">
                  {familyName(l.family)}
                </Badge>
                <Text size="sm" ff="monospace" truncate>
                  {l.user || t('minerLogins.noUser')}
                </Text>
                <Text size="sm" c="dimmed" aria-label={t('minerLogins.passwordSet')}>
                  ••••••
                </Text>
              </Group>
              {canOperate && (
                <EditDeleteActions
                  t={t}
                  subject={subject(l)}
                  onEdit={() => setDialog({ login: l })}
                  onDelete={() =>
                    confirmDeletion(t, t('minerLogins.deleteBody', { login: subject(l) }), (done) => remove.mutate(l.id, done), { title: t('minerLogins.deleteTitle') })
                  }
                />
              )}
            </Group>
          ))}
        </Stack>
      )}
      <Modal opened={dialog !== null} onClose={() => setDialog(null)} title={dialog?.login ? t('minerLogins.editTitle') : t('minerLogins.addTitle')} fullScreen={phone} size={480}>
        {dialog && <LoginDialog agentKey={agentKey} login={dialog.login} onClose={() => setDialog(null)} />}
      </Modal>
    </Card>
  );
}
