/**
 * Step "security settings": who approves batch pool settings and firmware upgrades on this farm, and which
 * roles need that approval (spec 2 §6: "some actions need … email approval"). Saved with the step's button.
 * The approver is chosen from GET /api/options/auditorList: only users with an e-mail address are offered (the
 * server refuses others, approverNoEmail); a saved approver who no longer qualifies shows, disabled, as such.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { useApprovalSetting, useApproverOptions, useRoleOptions, useSaveApprovalSetting } from '../api/farm-setup-api';

export function SecurityStep({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('farm-setup');
  const setting = useApprovalSetting(agentKey);
  const approvers = useApproverOptions(agentKey);
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

  const approverData: { value: string; label: string; disabled?: boolean }[] = (approvers.data ?? []).map((o) => ({ value: o.value, label: o.text }));
  // The saved approver, once the list is in and does not offer them (e-mail unbound, left the farm, disabled).
  const saved = setting.data?.approverId;
  if (saved && approvers.isSuccess && !approverData.some((o) => o.value === saved)) {
    approverData.push({ value: saved, label: t('security.approverUnavailable', { user: setting.data?.approverName ?? saved }), disabled: true });
  }

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
        data={approverData}
        value={approverId}
        onChange={setApprover}
        // Asked again on opening: an e-mail may have been bound since (in the user center, in another tab).
        onDropdownOpen={() => void approvers.refetch()}
        nothingFoundMessage={approvers.isPending ? t('feedback.loading') : t('security.noApprovers')}
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
