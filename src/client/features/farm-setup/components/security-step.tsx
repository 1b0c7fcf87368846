/**
 * Step "security settings": who approves batch pool settings and firmware upgrades on this farm, and which
 * roles need that approval (spec 2 §6: "some actions need … email approval"). Saved with the step's button;
 * the approver must have an e-mail address (the server says so otherwise).
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { useApprovalSetting, useFarmUsers, useRoleOptions, useSaveApprovalSetting } from '../api/farm-setup-api';

export function SecurityStep({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('farm-setup');
  const setting = useApprovalSetting(agentKey);
  const users = useFarmUsers(agentKey);
  const roles = useRoleOptions();
  const save = useSaveApprovalSetting();
  const [approverId, setApprover] = useState<string | null>(null);
  const [roleIds, setRoles] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!setting.data) return;
    setApprover(setting.data.approverId);
    setRoles(setting.data.roleIds);
  }, [setting.data]);

  const submit = () =>
    save.mutate(
      { agentKey, approverId, roleIds },
      {
        onSuccess: () => {
          setErrors({});
          notifySuccess(t('feedback.saveSuccess'));
        },
        onError: (e) => {
          if (e instanceof ApiError && Object.keys(e.fields).length) setErrors(e.fields);
          else notifyFailure(e, t('feedback.failed'));
        },
      },
    );

  if (setting.isError) return <Alert color="gray">{t('security.noAccess')}</Alert>;
  return (
    <Stack gap="sm" maw={640} data-testid="step-security">
      <Text size="sm">{t('security.intro')}</Text>
      <Select
        label={t('security.approver')}
        description={t('security.approverHint')}
        clearable
        searchable
        disabled={!canOperate}
        data={(users.data ?? []).map((u) => ({ value: u.id, label: u.email ? `${u.user} (${u.email})` : `${u.user} — ${t('security.noEmail')}` }))}
        value={approverId}
        onChange={setApprover}
        error={errors.approverId}
        comboboxProps={{ withinPortal: true }}
        data-testid="security-approver"
      />
      <MultiSelect
        label={t('security.roles')}
        description={t('security.rolesHint')}
        clearable
        searchable
        disabled={!canOperate}
        data={(roles.data ?? []).map((r) => ({ value: r.value, label: r.text }))}
        value={roleIds}
        onChange={setRoles}
        error={errors.roleIds}
        comboboxProps={{ withinPortal: true }}
        data-testid="security-roles"
      />
      {approverId && roleIds.length === 0 && <Text size="xs" c="dimmed">{t('security.noRoles')}</Text>}
      {canOperate && (
        <Group>
          <Button leftSection={<IconShieldCheck size={16} />} onClick={submit} loading={save.isPending} data-testid="security-save">
            {t('security.save')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
