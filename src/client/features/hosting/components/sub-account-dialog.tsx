import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconCircleX, IconPlugConnected } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { COIN_TYPES } from '@shared/pool-sites';
import { type ObserverTestResult, type SubAccount, type SubAccountFormValues, validateSubAccountForm } from '@shared/schemas/pool';
import { usePoolNames, useSaveSubAccount, testObserverUrl } from '../api/pools-api';
import { type PassedTest, observerTestProblem, observerTestSatisfied, subAccountToForm } from '../lib/pool-forms';
import { FormActions } from '@client/components/form-actions';

/** Modal width of spec 2 §2 (sub-account dialog). */
export const SUB_ACCOUNT_DIALOG_WIDTH = 720;

export interface SubAccountDialogProps {
  opened: boolean;
  agentKey: string;
  subAccount?: SubAccount;
  onClose: () => void;
}

function SubAccountForm({ agentKey, subAccount, onClose }: Omit<SubAccountDialogProps, 'opened'>) {
  const { t } = useTranslation(['pools', 'errors']);
  const save = useSaveSubAccount();
  const poolNames = usePoolNames(agentKey);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ObserverTestResult | null>(null);
  const [passed, setPassed] = useState<PassedTest | null>(null);
  const form = useForm<SubAccountFormValues>({
    mode: 'controlled',
    initialValues: subAccountToForm(subAccount),
    validate: (v) => validateSubAccountForm(v, subAccount !== undefined),
  });
  const err = (field: keyof SubAccountFormValues) => fieldMessage(t, form.errors[field]);

  const runTest = async () => {
    const { observerUrl, coinType } = form.getValues();
    const problem = observerTestProblem(observerUrl, coinType);
    if (problem) {
      form.setFieldError(problem.field, problem.key);
      return;
    }
    setTesting(true);
    setResult(null);
    try {
      const r = await testObserverUrl(agentKey, observerUrl.trim(), coinType);
      setResult(r);
      setPassed(r.status === 0 ? { observerUrl: observerUrl.trim(), coinType } : null);
      if (r.status === 0) form.clearFieldError('observerUrl');
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setErrors(error.fields);
      notifyFailure(error, t('pools:feedback.failed'));
    } finally {
      setTesting(false);
    }
  };

  const submit = form.onSubmit((values) => {
    if (!observerTestSatisfied(values, passed, subAccount)) {
      form.setFieldError('observerUrl', 'validation.observerTestRequired');
      return;
    }
    save.mutate(
      {
        agentKey,
        ...(subAccount ? { id: subAccount.id } : {}),
        accountName: values.accountName.trim(),
        password: values.password,
        poolName: values.poolName,
        coinType: values.coinType,
        observerUrl: values.observerUrl.trim(),
      },
      {
        onSuccess: () => {
          notifySuccess(t('pools:feedback.saveSuccess'));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setErrors(error.fields);
          notifyFailure(error, t('pools:feedback.failed'));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate data-testid="sub-account-form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('pools:sub.accountName')} withAsterisk name="accountName" autoComplete="off" data-autofocus {...form.getInputProps('accountName')} error={err('accountName')} />
          <PasswordInput
            label={t('pools:sub.password')}
            withAsterisk={!subAccount}
            name="password"
            autoComplete="new-password"
            placeholder={subAccount?.hasPassword ? t('pools:sub.passwordKeep') : undefined}
            {...form.getInputProps('password')}
            error={err('password')}
          />
          <Select
            label={t('pools:sub.poolName')}
            withAsterisk
            searchable
            data={(poolNames.data ?? []).map((o) => ({ value: o.value, label: o.text }))}
            value={form.values.poolName || null}
            onChange={(v) => form.setFieldValue('poolName', v ?? '')}
            error={err('poolName')}
            data-testid="sub-account-pool"
          />
          <Select
            label={t('pools:sub.coinType')}
            withAsterisk
            data={[...COIN_TYPES]}
            value={form.values.coinType || null}
            onChange={(v) => form.setFieldValue('coinType', v ?? '')}
            error={err('coinType')}
            data-testid="sub-account-coin"
          />
        </SimpleGrid>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('pools:sub.observerUrl')}
            withAsterisk
            name="observerUrl"
            inputMode="url"
            spellCheck={false}
            {...form.getInputProps('observerUrl')}
            error={err('observerUrl')}
          />
          <Button mt={25} variant="light" leftSection={<IconPlugConnected size={16} />} loading={testing} onClick={() => void runTest()} data-testid="sub-account-test">
            {t('pools:sub.test')}
          </Button>
        </Group>
        {result && (
          <Alert
            color={result.status === 0 ? 'green' : 'red'}
            icon={result.status === 0 ? <IconCircleCheck size={18} /> : <IconCircleX size={18} />}
            data-testid="sub-account-test-result"
          >
            {result.status === 0 ? t('pools:sub.testOk', { hashP: result.hashP ?? 0, unit: result.unit ?? '' }) : t('errors:validation.observerConnectFailed')}
          </Alert>
        )}
        <FormActions cancel={t('pools:actions.cancel')} onCancel={onClose} submit={t('pools:actions.save')} pending={save.isPending} />
      </Stack>
    </form>
  );
}

/** Add or edit a sub-account and test its observer link (spec 2 §2, §5). */
export function SubAccountDialog({ opened, agentKey, subAccount, onClose }: SubAccountDialogProps) {
  const { t } = useTranslation('pools');
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={subAccount ? t('sub.editTitle') : t('sub.createTitle')} size={SUB_ACCOUNT_DIALOG_WIDTH} fullScreen={phone} data-testid="sub-account-dialog">
      {opened && <SubAccountForm key={subAccount?.id ?? 'new'} agentKey={agentKey} subAccount={subAccount} onClose={onClose} />}
    </Modal>
  );
}
