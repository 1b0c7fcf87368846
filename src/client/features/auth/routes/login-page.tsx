/**
 * Login: user and password. A wrong password shows the server's message; too many attempts (429) shows
 * the rate-limit message. After login the console opens where the user was sent from, else at /.
 */
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoginBody, type CurrentUser } from '@shared/schemas/auth';
import { api, ApiError } from '@client/lib/api-client';
import { zodValidate } from '@client/lib/form-errors';
import { sessionKeys, useCurrentUser, usePublicConfig } from '@client/lib/session-api';
import { FullScreenLoader } from '@client/components/page-loading';
import { AuthCard } from '../components/auth-card';

/** Only same-site paths are followed after login (no open redirect). */
export function safeReturnPath(from: unknown): string {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/login') || from.startsWith('/setup')) return '/';
  return from;
}

export function loginErrorMessage(err: unknown, t: (key: string) => string): string {
  if (err instanceof ApiError) {
    if (err.status === 429 || err.code === 429) return t('auth:login.rateLimited');
    if (err.code === 1002) return err.message || t('auth:login.wrong');
    if (err.status >= 500) return t('auth:login.serverError');
    return err.message;
  }
  return t('auth:network');
}

export function LoginPage() {
  const { t } = useTranslation(['auth', 'errors']);
  const config = usePublicConfig();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const from = safeReturnPath((location.state as { from?: string } | null)?.from);
  const form = useForm({ mode: 'controlled', initialValues: { user: '', password: '' }, validate: zodValidate(LoginBody, t) });
  const login = useMutation({
    mutationFn: (v: { user: string; password: string }) => api.post<CurrentUser>('/api/userv3/login', { user: v.user.trim(), password: v.password }, { quiet401: true }),
    onSuccess: async (u) => {
      queryClient.removeQueries({ queryKey: ['session', 'menus'] });
      queryClient.setQueryData(sessionKeys.currentUser, u);
      await queryClient.invalidateQueries({ queryKey: sessionKeys.farms });
      navigate(from, { replace: true });
    },
  });

  if (config.isPending && !config.data) return <FullScreenLoader />;
  if (config.data?.setupNeeded) return <Navigate to="/setup" replace />;
  if (user.data && !user.isError && !login.isPending) return <Navigate to={from} replace />;

  return (
    <AuthCard title={t('auth:login.title')} subtitle={t('auth:login.subtitle')} testId="login-page">
      <form onSubmit={form.onSubmit((v) => login.mutate(v))} noValidate>
        <Stack gap="sm">
          {login.error && (
            <Alert color="red" variant="light" data-testid="login-error" role="alert">
              {loginErrorMessage(login.error, t)}
            </Alert>
          )}
          <TextInput label={t('auth:field.user')} autoComplete="username" name="user" required {...form.getInputProps('user')} />
          <PasswordInput label={t('auth:field.password')} autoComplete="current-password" name="password" required {...form.getInputProps('password')} />
          <Button type="submit" loading={login.isPending} fullWidth mt="xs" data-testid="login-submit">
            {t('auth:login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
