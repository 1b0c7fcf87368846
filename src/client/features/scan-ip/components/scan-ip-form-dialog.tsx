import { Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { formatNumber } from '@shared/format/number';
import { SCAN_IP_LIMITS, ipRangeSize, type ScanIpRange } from '@shared/schemas/scan-ip';
import { useSaveScanIp } from '../api/scan-ip';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { rangeToFormValues, validateScanIpForm, type ScanIpFormValues } from '../lib/scan-ip-form';
import { usePhone } from '@client/lib/use-phone';
import { FormActions } from '@client/components/form-actions';

export interface ScanIpFormDialogProps {
  opened: boolean;
  agentKey: string;
  /** Edit mode when given. */
  range?: ScanIpRange;
  onClose: () => void;
}

const FORM_FIELDS = ['ipBegin', 'ipEnd', 'remark'] as const;

function ScanIpForm({ agentKey, range, onClose }: Omit<ScanIpFormDialogProps, 'opened'>) {
  const { t } = useTranslation(['scan-ip', 'errors']);
  const save = useSaveScanIp();
  const form = useForm<ScanIpFormValues>({
    mode: 'controlled',
    initialValues: rangeToFormValues(range),
    validate: validateScanIpForm,
  });
  const err = (field: keyof ScanIpFormValues) => fieldMessage(t, form.errors[field]);
  const amount = ipRangeSize(form.values.ipBegin.trim(), form.values.ipEnd.trim());

  const submit = form.onSubmit((values) => {
    const ipBegin = values.ipBegin.trim();
    const ipEnd = values.ipEnd.trim();
    save.mutate(
      { agentKey, ...(range ? { scanIpId: range.id } : {}), ipBegin, ipEnd, remark: values.remark.trim(), amount: ipRangeSize(ipBegin, ipEnd) },
      {
        onSuccess: () => {
          notifySuccess(t('scan-ip:feedback.saveSuccess'));
          onClose();
        },
        onError: (error) => {
          // A problem of a field (an overlap with another range) is shown under it; a notification would say it twice.
          const shown = error instanceof ApiError && FORM_FIELDS.some((f) => error.fields[f]);
          if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setErrors(error.fields);
          if (!shown) notifyFailure(error, t('scan-ip:feedback.failed'));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate data-testid="scan-ip-form">
      <Stack gap="sm">
        <TextInput
          label={t('scan-ip:form.ipBegin')}
          placeholder="192.168.1.1"
          withAsterisk
          autoComplete="off"
          inputMode="decimal"
          spellCheck={false}
          name="ipBegin"
          data-autofocus
          {...form.getInputProps('ipBegin')}
          error={err('ipBegin')}
        />
        <TextInput
          label={t('scan-ip:form.ipEnd')}
          placeholder="192.168.1.254"
          withAsterisk
          autoComplete="off"
          inputMode="decimal"
          spellCheck={false}
          name="ipEnd"
          {...form.getInputProps('ipEnd')}
          error={err('ipEnd')}
        />
        <Textarea
          label={t('scan-ip:form.remark')}
          placeholder={t('scan-ip:form.remarkPlaceholder')}
          autosize
          minRows={3}
          maxRows={6}
          maxLength={SCAN_IP_LIMITS.remarkMax}
          name="remark"
          {...form.getInputProps('remark')}
          error={err('remark')}
        />
        <Text size="sm" c="dimmed" data-testid="scan-ip-form-amount" aria-live="polite">
          {amount > 0 ? t('scan-ip:form.amount', { count: amount, amount: formatNumber(amount) }) : t('scan-ip:form.amountHint', { max: formatNumber(SCAN_IP_LIMITS.maxAddresses) })}
        </Text>
        <FormActions cancel={t('scan-ip:actions.cancel')} onCancel={onClose} submit={t('scan-ip:actions.save')} pending={save.isPending} />
      </Stack>
    </form>
  );
}

/** Add or edit one range (spec 2 §5 Scan IP range rules). */
export function ScanIpFormDialog({ opened, agentKey, range, onClose }: ScanIpFormDialogProps) {
  const { t } = useTranslation('scan-ip');
  const phone = usePhone();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={range ? t('form.editTitle') : t('form.createTitle')}
      size={520}
      fullScreen={phone}
      data-testid="scan-ip-form-dialog"
    >
      {opened && <ScanIpForm key={range?.id ?? 'new'} agentKey={agentKey} range={range} onClose={onClose} />}
    </Modal>
  );
}
