import { ActionIcon, Button, Divider, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMinus, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { PRICE_RULES, isCurrency } from '@shared/format/number';
import { COIN_TYPES } from '@shared/pool-sites';
import { type Customer, type CustomerFormValues, MAX_CONTACTS, customerFormToBody, customerToForm, validateCustomerForm } from '@shared/schemas/customer';
import { HASHRATE_UNITS } from '@shared/units';
import { LIMITS } from '@shared/validation';
import { useFixedOptions, useSaveCustomer } from '../api/customers-api';
import { emptyHostingRow, priceForCurrency, withTypeChanged } from '../lib/customer-form';
import { FormActions } from '@client/components/form-actions';

/** Dialog width of spec 2 §9. */
export const CUSTOMER_DIALOG_WIDTH = 850;

export interface CustomerFormDialogProps {
  opened: boolean;
  agentKey: string;
  /** Edit mode when given. */
  customer?: Customer;
  onClose: () => void;
}

function CustomerForm({ agentKey, customer, onClose }: Omit<CustomerFormDialogProps, 'opened'>) {
  const { t } = useTranslation(['customers', 'errors']);
  const save = useSaveCustomer();
  const models = useFixedOptions('minerModel');
  const areaCodes = useFixedOptions('areaCode');
  const coins = useFixedOptions('coinType');
  const form = useForm<CustomerFormValues>({ mode: 'controlled', initialValues: customerToForm(customer), validate: validateCustomerForm });
  const err = (path: string) => fieldMessage(t, form.errors[path]);
  const rule = PRICE_RULES[form.values.electricUnit];
  const coinData = coins.data ?? COIN_TYPES.map((c) => ({ text: c, value: c }));
  const modelData = (models.data ?? []).map((o) => ({ label: o.text, value: o.value }));
  const areaData = (areaCodes.data ?? [{ text: `+${LIMITS.defaultAreaCode}`, value: LIMITS.defaultAreaCode }]).map((o) => ({ label: o.text, value: o.value }));

  const submit = form.onSubmit((values) => {
    save.mutate(
      { agentKey, ...(customer ? { id: customer.id } : {}), ...customerFormToBody(values) },
      {
        onSuccess: () => {
          notifySuccess(t('customers:feedback.saveSuccess'));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setErrors(error.fields);
          notifyFailure(error, t('customers:feedback.failed'));
        },
      },
    );
  });

  const removeHostingRow = (index: number) => {
    if (form.values.hostingResult.length <= 1) {
      form.setFieldError('hostingResult', 'validation.hostingAtLeastOne');
      return;
    }
    form.removeListItem('hostingResult', index);
  };

  return (
    <form onSubmit={submit} noValidate data-testid="customer-form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('customers:form.name')} withAsterisk maxLength={LIMITS.customerNameMax} name="name" data-autofocus {...form.getInputProps('name')} error={err('name')} />
          <TextInput label={t('customers:form.contract')} withAsterisk maxLength={LIMITS.customerNameMax} name="contract" {...form.getInputProps('contract')} error={err('contract')} />
        </SimpleGrid>
        {form.values.contacts.map((contact, i) => (
          <Group key={i} align="flex-start" gap="xs" wrap="wrap" data-testid={`customer-contact-${i}`}>
            <Select
              w={130}
              label={i === 0 ? t('customers:form.contactType') : t('customers:form.contactType2')}
              withAsterisk={i === 0}
              allowDeselect={false}
              data={[
                { value: 'mobile', label: t('customers:form.mobile') },
                { value: 'email', label: t('customers:form.email') },
              ]}
              value={contact.kind}
              data-testid={`customer-contact-kind-${i}`}
              onChange={(v) => {
                form.setFieldValue(`contacts.${i}.kind`, v === 'email' ? 'email' : 'mobile');
                form.setFieldValue(`contacts.${i}.value`, '');
              }}
            />
            {contact.kind === 'mobile' && (
              <Select
                w={170}
                label={t('customers:form.areaCode')}
                searchable
                allowDeselect={false}
                data={areaData}
                value={contact.areaCode}
                data-testid={`customer-area-code-${i}`}
                onChange={(v) => form.setFieldValue(`contacts.${i}.areaCode`, v ?? LIMITS.defaultAreaCode)}
              />
            )}
            <TextInput
              style={{ flex: 1, minWidth: 180 }}
              label={contact.kind === 'email' ? t('customers:form.email') : t('customers:form.mobile')}
              withAsterisk={i === 0}
              inputMode={contact.kind === 'email' ? 'email' : 'tel'}
              name={`contacts.${i}.value`}
              {...form.getInputProps(`contacts.${i}.value`)}
              error={err(`contacts.${i}.value`)}
            />
            {i === 0 ? (
              <Tooltip label={t('customers:form.addContact')} withArrow>
                <ActionIcon mt={28} variant="light" aria-label={t('customers:form.addContact')} disabled={form.values.contacts.length >= MAX_CONTACTS} onClick={() => form.insertListItem('contacts', { kind: 'email', value: '', areaCode: LIMITS.defaultAreaCode })}>
                  <IconPlus size={16} />
                </ActionIcon>
              </Tooltip>
            ) : (
              <Tooltip label={t('customers:form.removeContact')} withArrow>
                <ActionIcon mt={28} variant="light" color="red" aria-label={t('customers:form.removeContact')} onClick={() => form.removeListItem('contacts', i)}>
                  <IconMinus size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        ))}
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <Select
            w={130}
            label={t('customers:form.electricUnit')}
            allowDeselect={false}
            data={[
              { value: 'CNY', label: 'CNY' },
              { value: 'USD', label: 'USD' },
            ]}
            value={form.values.electricUnit}
            data-testid="customer-currency"
            onChange={(v) => {
              if (!isCurrency(v)) return;
              form.setFieldValue('electricUnit', v);
              form.setFieldValue('electricPrice', priceForCurrency(form.getValues().electricPrice, v));
            }}
          />
          <NumberInput
            style={{ flex: 1 }}
            label={t('customers:form.electricPrice')}
            withAsterisk
            min={rule.min}
            step={rule.step}
            decimalScale={rule.decimals}
            allowNegative={false}
            rightSection={
              <Text size="xs" c="dimmed" data-testid="customer-price-unit">
                {rule.unit}
              </Text>
            }
            rightSectionWidth={56}
            name="electricPrice"
            value={form.values.electricPrice}
            onChange={(v) => form.setFieldValue('electricPrice', String(v))}
            error={err('electricPrice')}
          />
        </Group>
        <Divider label={t('customers:form.hosting')} labelPosition="left" />
        {err('hostingResult') && (
          <Text size="sm" c="red" role="alert">
            {err('hostingResult')}
          </Text>
        )}
        {form.values.hostingResult.map((row, i) => (
          <Group key={i} align="flex-start" gap="xs" wrap="wrap" data-testid={`customer-hosting-${i}`}>
            <Select
              w={180}
              label={t('customers:form.type')}
              withAsterisk
              searchable
              data={modelData}
              value={row.type || null}
              onChange={(v) => form.setFieldValue(`hostingResult.${i}`, withTypeChanged(row, v ?? ''))}
              error={err(`hostingResult.${i}.type`)}
              data-testid={`customer-hosting-type-${i}`}
            />
            <Select
              w={110}
              label={t('customers:form.coinType')}
              withAsterisk
              data={coinData.map((o) => ({ label: o.text, value: o.value }))}
              value={row.coinType || null}
              onChange={(v) => form.setFieldValue(`hostingResult.${i}.coinType`, v ?? '')}
              error={err(`hostingResult.${i}.coinType`)}
              data-testid={`customer-hosting-coin-${i}`}
            />
            <NumberInput
              w={120}
              label={t('customers:form.hashRate')}
              withAsterisk
              min={0}
              allowNegative={false}
              name={`hostingResult.${i}.hashRate`}
              value={row.hashRate}
              onChange={(v) => form.setFieldValue(`hostingResult.${i}.hashRate`, String(v))}
              error={err(`hostingResult.${i}.hashRate`)}
            />
            <Select
              w={100}
              label={t('customers:form.hashRateUnit')}
              allowDeselect={false}
              data={[...HASHRATE_UNITS]}
              value={row.hashRateUnit}
              onChange={(v) => form.setFieldValue(`hostingResult.${i}.hashRateUnit`, v ?? 'TH/s')}
            />
            <NumberInput
              w={110}
              label={t('customers:form.minerNum')}
              withAsterisk
              min={0}
              allowNegative={false}
              allowDecimal={false}
              name={`hostingResult.${i}.minerNum`}
              value={row.minerNum}
              onChange={(v) => form.setFieldValue(`hostingResult.${i}.minerNum`, String(v))}
              error={err(`hostingResult.${i}.minerNum`)}
            />
            <ActionIcon mt={28} variant="subtle" color="red" aria-label={t('customers:form.removeRow', { n: i + 1 })} onClick={() => removeHostingRow(i)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => form.insertListItem('hostingResult', emptyHostingRow())}>
            {t('customers:form.addRow')}
          </Button>
        </Group>
        <FormActions cancel={t('customers:actions.cancel')} onCancel={onClose} submit={t('customers:actions.save')} pending={save.isPending} />
      </Stack>
    </form>
  );
}

/** Add or edit a customer (spec 2 §2 "Customer dialog", width 850; rules of §5). */
export function CustomerFormDialog({ opened, agentKey, customer, onClose }: CustomerFormDialogProps) {
  const { t } = useTranslation('customers');
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={customer ? t('form.editTitle') : t('form.createTitle')} size={CUSTOMER_DIALOG_WIDTH} fullScreen={phone} data-testid="customer-form-dialog">
      {opened && <CustomerForm key={customer?.id ?? 'new'} agentKey={agentKey} customer={customer} onClose={onClose} />}
    </Modal>
  );
}
