/**
 * User center (/user/center, PublicConfig.accountCenterUrl): change password, bind e-mail, bind phone
 * (area code default 86). Alarm contacts and verification codes use what is bound here.
 */
import { Alert, Button, Card, Grid, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BindEmailBody, BindMobileBody, ChangePasswordBody, type CurrentUser } from '@shared/schemas/auth';
import { LIMITS } from '@shared/validation';
import { api, ApiError } from '@client/lib/api-client';
import { translateErrors, zodValidate } from '@client/lib/form-errors';
import { sessionKeys, useCurrentUser } from '@client/lib/session-api';
import { PageLoading } from '@client/components/page-loading';

function useSaved() {
  const { t } = useTranslation('auth');
  return () => notifications.show({ color: 'green', message: t('userCenter.saved') });
}

function failure(err: unknown, t: (k: string) => string): string {
  return err instanceof ApiError ? err.message : t('auth:network');
}

function PasswordCard() {
  const { t } = useTranslation(['auth', 'errors']);
  const saved = useSaved();
  const validate = zodValidate(ChangePasswordBody, t);
  const form = useForm({
    mode: 'controlled',
    initialValues: { oldPassword: '', newPassword: '', confirm: '' },
    validate: (v) => {
      const errors = validate(v);
      if (v.confirm !== v.newPassword) errors.confirm = t('auth:setup.mismatch');
      return errors;
    },
  });
  const change = useMutation({
    mutationFn: (v: { oldPassword: string; newPassword: string }) => api.post<null>('/api/userv2/changePassword', { oldPassword: v.oldPassword, newPassword: v.newPassword }),
    onSuccess: () => {
      form.reset();
      saved();
    },
    onError: (err) => {
      if (err instanceof ApiError) form.setErrors(translateErrors(t, err.fields));
    },
  });
  return (
    <Card withBorder padding="lg" data-testid="change-password-card">
      <form onSubmit={form.onSubmit((v) => change.mutate(v))} noValidate>
        <Stack gap="sm">
          <Title order={4}>{t('auth:userCenter.password')}</Title>
          <Text size="sm" c="dimmed">{t('auth:userCenter.passwordHint')}</Text>
          {change.error && <Alert color="red" variant="light">{failure(change.error, t)}</Alert>}
          <PasswordInput label={t('auth:userCenter.oldPassword')} autoComplete="current-password" {...form.getInputProps('oldPassword')} />
          <PasswordInput label={t('auth:userCenter.newPassword')} autoComplete="new-password" {...form.getInputProps('newPassword')} />
          <PasswordInput label={t('auth:field.confirm')} autoComplete="new-password" {...form.getInputProps('confirm')} />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>{t('auth:userCenter.changePassword')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function EmailCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation(['auth', 'errors']);
  const saved = useSaved();
  const queryClient = useQueryClient();
  const form = useForm({ mode: 'controlled', initialValues: { email: user.email ?? '' }, validate: zodValidate(BindEmailBody, t) });
  const bind = useMutation({
    mutationFn: (v: { email: string }) => api.post<CurrentUser>('/api/userv2/bindEmail', { email: v.email.trim() }),
    onSuccess: (u) => {
      queryClient.setQueryData(sessionKeys.currentUser, u);
      saved();
    },
    onError: (err) => {
      if (err instanceof ApiError) form.setErrors(translateErrors(t, err.fields));
    },
  });
  return (
    <Card withBorder padding="lg" data-testid="bind-email-card">
      <form onSubmit={form.onSubmit((v) => bind.mutate(v))} noValidate>
        <Stack gap="sm">
          <Title order={4}>{t('auth:userCenter.email')}</Title>
          <Text size="sm" c="dimmed">{user.email ? t('auth:userCenter.emailBound', { email: user.email }) : t('auth:userCenter.emailNone')}</Text>
          {bind.error && <Alert color="red" variant="light">{failure(bind.error, t)}</Alert>}
          <TextInput label={t('auth:field.email')} type="email" autoComplete="email" {...form.getInputProps('email')} />
          <Group justify="flex-end">
            <Button type="submit" loading={bind.isPending}>{t('auth:userCenter.bind')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function PhoneCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation(['auth', 'errors']);
  const saved = useSaved();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'controlled',
    initialValues: { areaCode: user.areaCode || LIMITS.defaultAreaCode, mobile: user.mobile ?? '' },
    validate: zodValidate(BindMobileBody, t),
  });
  const bind = useMutation({
    mutationFn: (v: { areaCode: string; mobile: string }) => api.post<CurrentUser>('/api/userv2/bindMobile', { areaCode: v.areaCode.trim() || LIMITS.defaultAreaCode, mobile: v.mobile.trim() }),
    onSuccess: (u) => {
      queryClient.setQueryData(sessionKeys.currentUser, u);
      saved();
    },
    onError: (err) => {
      if (err instanceof ApiError) form.setErrors(translateErrors(t, err.fields));
    },
  });
  const china = form.getValues().areaCode.trim() === LIMITS.defaultAreaCode;
  return (
    <Card withBorder padding="lg" data-testid="bind-phone-card">
      <form onSubmit={form.onSubmit((v) => bind.mutate(v))} noValidate>
        <Stack gap="sm">
          <Title order={4}>{t('auth:userCenter.phone')}</Title>
          <Text size="sm" c="dimmed">
            {user.mobile ? t('auth:userCenter.phoneBound', { phone: `+${user.areaCode} ${user.mobile}` }) : t('auth:userCenter.phoneNone')}
          </Text>
          {bind.error && <Alert color="red" variant="light">{failure(bind.error, t)}</Alert>}
          <Grid gap="sm">
            <Grid.Col span={4}>
              <TextInput label={t('auth:userCenter.areaCode')} leftSection="+" inputMode="numeric" {...form.getInputProps('areaCode')} />
            </Grid.Col>
            <Grid.Col span={8}>
              <TextInput label={t('auth:userCenter.mobile')} inputMode="tel" autoComplete="tel-national" {...form.getInputProps('mobile')} />
            </Grid.Col>
          </Grid>
          {china && <Text size="xs" c="orange">{t('auth:userCenter.chinaSms')}</Text>}
          <Group justify="flex-end">
            <Button type="submit" loading={bind.isPending}>{t('auth:userCenter.bind')}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function UserCenterPage() {
  const { t } = useTranslation('auth');
  const user = useCurrentUser();
  if (!user.data) return <PageLoading />;
  const u = user.data;
  return (
    <Stack gap="md" maw={1100} data-testid="user-center-page">
      <div>
        <Title order={2} size="h3">{t('userCenter.title')}</Title>
        <Text c="dimmed" size="sm">
          {u.user}
          {u.roleName ? ` · ${u.roleName}` : ''}
          {u.isAdmin ? ` · ${t('userCenter.admin')}` : ''}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <PasswordCard />
        <Stack gap="md">
          <EmailCard user={u} />
          <PhoneCard user={u} />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
