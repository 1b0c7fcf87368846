import { useState } from 'react';
import { ActionIcon, Anchor, Button, Divider, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { usePermissions } from '@client/lib/session-api';
import { CUSTOMER_PERMISSION } from '@shared/schemas/customer';
import { type PoolGroup, type PoolGroupFormValues, validatePoolGroupForm } from '@shared/schemas/pool';
import { useCustomerList } from '../api/customers-api';
import { CustomerFormDialog } from './customer-form-dialog';
import { useHostingInfo, useSavePoolGroup, useSubAccounts } from '../api/pools-api';
import { availableByKey, emptyGroupRow, poolGroupFormToBody, poolGroupToForm, rowOptions, withCustomerChanged, withRowChosen } from '../lib/pool-forms';
import { FormActions } from '@client/components/form-actions';

/** Dialog width of spec 2 §9. */
export const POOL_GROUP_DIALOG_WIDTH = 810;

export interface PoolGroupDialogProps {
  opened: boolean;
  agentKey: string;
  group?: PoolGroup;
  onClose: () => void;
}

const POOLS = [1, 2, 3] as const;

function PoolGroupForm({ agentKey, group, onClose }: Omit<PoolGroupDialogProps, 'opened'>) {
  const { t } = useTranslation(['pools', 'errors']);
  const { has } = usePermissions();
  const save = useSavePoolGroup();
  const customers = useCustomerList(agentKey, true);
  const subs = useSubAccounts(agentKey, true);
  const [customerDialog, setCustomerDialog] = useState(false);
  const form = useForm<PoolGroupFormValues>({ mode: 'controlled', initialValues: poolGroupToForm(group) });
  const hosting = useHostingInfo(agentKey, form.values.customerId, group?.id ?? '');
  const hostingRows = hosting.data ?? [];
  const available = availableByKey(hostingRows);
  const err = (path: string) => fieldMessage(t, form.errors[path]);
  const subData = (subs.data?.list ?? []).map((s) => ({ value: s.id, label: `${s.accountName} (${s.poolName})` }));
  const rowData = rowOptions(hostingRows);

  const submit = form.onSubmit((values) => {
    const errors = validatePoolGroupForm(values, available);
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      return;
    }
    save.mutate(
      { agentKey, ...(group ? { id: group.id } : {}), ...poolGroupFormToBody(values, hostingRows) },
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

  const removeRow = (index: number) => {
    if (form.values.poolGroupHosting.length <= 1) {
      form.setFieldError('poolGroupHosting', 'validation.hostingAtLeastOne');
      return;
    }
    form.removeListItem('poolGroupHosting', index);
  };

  return (
    <>
    <form onSubmit={submit} noValidate data-testid="pool-group-form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('pools:group.name')} withAsterisk maxLength={50} name="name" data-autofocus {...form.getInputProps('name')} error={err('name')} />
          <Select
            label={t('pools:group.customer')}
            withAsterisk
            searchable
            data={(customers.data?.list ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={form.values.customerId || null}
            onChange={(v) => form.setValues(withCustomerChanged(form.getValues(), v ?? ''))}
            error={err('customerId')}
            description={
              has(CUSTOMER_PERMISSION.operate) ? (
                <Anchor component="button" type="button" size="xs" onClick={() => setCustomerDialog(true)}>
                  {t('pools:group.newCustomer')}
                </Anchor>
              ) : undefined
            }
            data-testid="pool-group-customer"
          />
        </SimpleGrid>
        {POOLS.map((n) => (
          <SimpleGrid key={n} cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('pools:group.poolUrl', { n })}
              withAsterisk={n === 1}
              placeholder="stratum+tcp://"
              spellCheck={false}
              name={`pool${n}Url`}
              {...form.getInputProps(`pool${n}Url`)}
              error={err(`pool${n}Url`)}
            />
            <Select
              label={t('pools:group.subAccount', { n })}
              withAsterisk={n === 1}
              searchable
              clearable={n !== 1}
              data={subData}
              value={form.values[`subAccount${n}Id`] || null}
              onChange={(v) => form.setFieldValue(`subAccount${n}Id`, v ?? '')}
              error={err(`subAccount${n}Id`)}
              data-testid={`pool-group-sub-${n}`}
            />
          </SimpleGrid>
        ))}
        <Divider label={t('pools:group.hosting')} labelPosition="left" />
        {err('poolGroupHosting') && (
          <Text size="sm" c="red" role="alert">
            {err('poolGroupHosting')}
          </Text>
        )}
        {form.values.customerId === '' ? (
          <Text size="sm" c="dimmed">
            {t('pools:group.chooseCustomerFirst')}
          </Text>
        ) : (
          form.values.poolGroupHosting.map((row, i) => (
            <Group key={i} align="flex-start" gap="xs" wrap="nowrap" data-testid={`pool-group-hosting-${i}`}>
              <Select
                style={{ flex: 1 }}
                label={t('pools:group.hostingRow')}
                withAsterisk
                data={rowData}
                value={row.key || null}
                onChange={(v) => {
                  const next = withRowChosen(form.getValues(), i, v ?? '');
                  form.setFieldValue(`poolGroupHosting.${i}`, next.values.poolGroupHosting[i] ?? emptyGroupRow());
                  if (next.duplicate) form.setFieldError(`poolGroupHosting.${i}.key`, 'validation.hostingDuplicate');
                  else form.clearFieldError(`poolGroupHosting.${i}.key`);
                }}
                error={err(`poolGroupHosting.${i}.key`)}
                data-testid={`pool-group-row-${i}`}
              />
              <NumberInput
                w={150}
                label={t('pools:group.minerNum')}
                withAsterisk
                min={0}
                max={row.key ? (available.get(row.key) ?? 0) : undefined}
                allowNegative={false}
                allowDecimal={false}
                description={row.key ? t('pools:group.available', { count: available.get(row.key) ?? 0 }) : undefined}
                name={`poolGroupHosting.${i}.minerNum`}
                value={row.minerNum}
                onChange={(v) => form.setFieldValue(`poolGroupHosting.${i}.minerNum`, String(v))}
                error={err(`poolGroupHosting.${i}.minerNum`)}
              />
              <ActionIcon mt={row.key ? 48 : 28} variant="subtle" color="red" aria-label={t('pools:group.removeRow', { n: i + 1 })} onClick={() => removeRow(i)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))
        )}
        {form.values.customerId !== '' && (
          <Group>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} />}
              disabled={form.values.poolGroupHosting.length >= hostingRows.length}
              onClick={() => form.insertListItem('poolGroupHosting', emptyGroupRow())}
            >
              {t('pools:group.addRow')}
            </Button>
          </Group>
        )}
        <FormActions cancel={t('pools:actions.cancel')} onCancel={onClose} submit={t('pools:actions.save')} pending={save.isPending} />
      </Stack>
    </form>
    {/* Outside the form: React events bubble through portals, the customer form's submit must not reach this one. */}
    <CustomerFormDialog opened={customerDialog} agentKey={agentKey} onClose={() => setCustomerDialog(false)} />
    </>
  );
}

/** Add or edit a pool group (spec 2 §2 "Pool group dialog", width 810; rules of §5). */
export function PoolGroupDialog({ opened, agentKey, group, onClose }: PoolGroupDialogProps) {
  const { t } = useTranslation('pools');
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={group ? t('group.editTitle') : t('group.createTitle')} size={POOL_GROUP_DIALOG_WIDTH} fullScreen={phone} data-testid="pool-group-dialog">
      {opened && <PoolGroupForm key={group?.id ?? 'new'} agentKey={agentKey} group={group} onClose={onClose} />}
    </Modal>
  );
}
