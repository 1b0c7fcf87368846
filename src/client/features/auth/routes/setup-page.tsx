/**
 * First-run set-up (PublicConfig.setupNeeded): create the first administrator (user, password + confirm,
 * optional e-mail). The server logs the new administrator in.
 */
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { SetupBody, type CurrentUser } from '@shared/schemas/auth';
import { api, ApiError } from '@client/lib/api-client';
import { translateErrors, zodValidate } from '@client/lib/form-errors';
import { sessionKeys, usePublicConfig } from '@client/lib/session-api';
import { FullScreenLoader } from '@client/components/page-loading';
import { AuthCard } from '../components/auth-card';

interface SetupValues {
  user: string;
  password: string;
  confirm: string;
  email: string;
}

export function SetupPage() {
  const { t } = useTranslation(['auth', 'errors']);
  const config = usePublicConfig();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const schemaValidate = zodValidate(SetupBody, t);
  const form = useForm<SetupValues>({
    mode: 'controlled',
    initialValues: { user: '', password: '', confirm: '', email: '' },
    validate: (values) => {
      const errors = schemaValidate(values as unknown as Record<string, unknown>);
      if (values.confirm !== values.password) errors.confirm = t('auth:setup.mismatch');
      return errors;
    },
  });
  const setup = useMutation({
    mutationFn: (v: SetupValues) => api.post<CurrentUser>('/api/userv3/setup', { user: v.user.trim(), password: v.password, email: v.email.trim() || undefined }, { quiet401: true }),
    onSuccess: async (user) => {
      queryClient.setQueryData(sessionKeys.currentUser, user);
      await queryClient.invalidateQueries({ queryKey: sessionKeys.publicConfig });
      navigate('/', { replace: true });
    },
    onError: (err) => {
      if (err instanceof ApiError) form.setErrors(translateErrors(t, err.fields));
    },
  });

  if (config.isPending) return <FullScreenLoader />;
  if (config.data && !config.data.setupNeeded) return <Navigate to="/login" replace />;

  const error = setup.error;
  return (
    <AuthCard title={t('auth:setup.title')} subtitle={t('auth:setup.subtitle')} testId="setup-page">
      <form onSubmit={form.onSubmit((v) => setup.mutate(v))} noValidate>
        <Stack gap="sm">
          {error && (
            <Alert color="red" variant="light" data-testid="setup-error">
              {error instanceof ApiError && error.code !== 1001 ? error.message : error instanceof ApiError ? t('auth:setup.checkFields') : t('auth:network')}
            </Alert>
          )}
          <TextInput label={t('auth:field.user')} description={t('auth:setup.userHint')} autoComplete="username" required name="user" {...form.getInputProps('user')} />
          <PasswordInput label={t('auth:field.password')} description={t('auth:setup.passwordHint')} autoComplete="new-password" required name="password" {...form.getInputProps('password')} />
          <PasswordInput label={t('auth:field.confirm')} autoComplete="new-password" required name="confirm" {...form.getInputProps('confirm')} />
          <TextInput label={t('auth:field.email')} description={t('auth:setup.emailHint')} type="email" autoComplete="email" name="email" {...form.getInputProps('email')} />
          <Button type="submit" loading={setup.isPending} fullWidth mt="xs">
            {t('auth:setup.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
