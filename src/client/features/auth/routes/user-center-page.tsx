/**
 * User center (/user/center, PublicConfig.accountCenterUrl): change password, bind e-mail, bind phone
 * (area code default 86). Alarm contacts and verification codes use what is bound here.
 */
import { Alert, Button, Card, Grid, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
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

/** One form of the page: its card, title, hint, the request's failure, its fields and the submit button. */
function FormCard(props: { testId: string; title: string; hint: ReactNode; error: unknown; onSubmit: (e?: FormEvent<HTMLFormElement>) => void; submit: string; pending: boolean; children: ReactNode }) {
  const { t } = useTranslation(['auth']);
  return (
    <Card withBorder padding="lg" data-testid={props.testId}>
      <form onSubmit={props.onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={4}>{props.title}</Title>
          <Text size="sm" c="dimmed">{props.hint}</Text>
          {props.error ? <Alert color="red" variant="light">{failure(props.error, t)}</Alert> : null}
          {props.children}
          <Group justify="flex-end">
            <Button type="submit" loading={props.pending}>{props.submit}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** Binds a contact of the user (e-mail or phone): the answer is the user as now, its field errors go to the form. */
function useBind<V>(url: string, body: (v: V) => Record<string, string>, setErrors: (errors: FormErrors) => void) {
  const { t } = useTranslation(['auth', 'errors']);
  const saved = useSaved();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => api.post<CurrentUser>(url, body(v)),
    onSuccess: (u) => {
      queryClient.setQueryData(sessionKeys.currentUser, u);
      saved();
    },
    onError: (err) => {
      if (err instanceof ApiError) setErrors(translateErrors(t, err.fields));
    },
  });
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
    <FormCard
      testId="change-password-card"
      title={t('auth:userCenter.password')}
      hint={t('auth:userCenter.passwordHint')}
      error={change.error}
      onSubmit={form.onSubmit((v) => change.mutate(v))}
      submit={t('auth:userCenter.changePassword')}
      pending={change.isPending}
    >
      <PasswordInput label={t('auth:userCenter.oldPassword')} autoComplete="current-password" {...form.getInputProps('oldPassword')} />
      <PasswordInput label={t('auth:userCenter.newPassword')} autoComplete="new-password" {...form.getInputProps('newPassword')} />
      <PasswordInput label={t('auth:field.confirm')} autoComplete="new-password" {...form.getInputProps('confirm')} />
    </FormCard>
  );
}

function EmailCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation(['auth', 'errors']);
  const form = useForm({ mode: 'controlled', initialValues: { email: user.email ?? '' }, validate: zodValidate(BindEmailBody, t) });
  const bind = useBind('/api/userv2/bindEmail', (v: { email: string }) => ({ email: v.email.trim() }), form.setErrors);
  return (
    <FormCard
      testId="bind-email-card"
      title={t('auth:userCenter.email')}
      hint={user.email ? t('auth:userCenter.emailBound', { email: user.email }) : t('auth:userCenter.emailNone')}
      error={bind.error}
      onSubmit={form.onSubmit((v) => bind.mutate(v))}
      submit={t('auth:userCenter.bind')}
      pending={bind.isPending}
    >
      <TextInput label={t('auth:field.email')} type="email" autoComplete="email" {...form.getInputProps('email')} />
    </FormCard>
  );
}

function PhoneCard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation(['auth', 'errors']);
  const form = useForm({
    mode: 'controlled',
    initialValues: { areaCode: user.areaCode || LIMITS.defaultAreaCode, mobile: user.mobile ?? '' },
    validate: zodValidate(BindMobileBody, t),
  });
  const bind = useBind(
    '/api/userv2/bindMobile',
    (v: { areaCode: string; mobile: string }) => ({ areaCode: v.areaCode.trim() || LIMITS.defaultAreaCode, mobile: v.mobile.trim() }),
    form.setErrors,
  );
  const china = form.getValues().areaCode.trim() === LIMITS.defaultAreaCode;
  return (
    <FormCard
      testId="bind-phone-card"
      title={t('auth:userCenter.phone')}
      hint={user.mobile ? t('auth:userCenter.phoneBound', { phone: `+${user.areaCode} ${user.mobile}` }) : t('auth:userCenter.phoneNone')}
      error={bind.error}
      onSubmit={form.onSubmit((v) => bind.mutate(v))}
      submit={t('auth:userCenter.bind')}
      pending={bind.isPending}
    >
      <Grid gap="sm">
        <Grid.Col span={4}>
          <TextInput label={t('auth:userCenter.areaCode')} leftSection="+" inputMode="numeric" {...form.getInputProps('areaCode')} />
        </Grid.Col>
        <Grid.Col span={8}>
          <TextInput label={t('auth:userCenter.mobile')} inputMode="tel" autoComplete="tel-national" {...form.getInputProps('mobile')} />
        </Grid.Col>
      </Grid>
      {china && <Text size="xs" c="orange">{t('auth:userCenter.chinaSms')}</Text>}
    </FormCard>
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
