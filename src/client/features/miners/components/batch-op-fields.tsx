/** The parameters of one batch op (pools: set-pool-fields.tsx; work mode, percents, frequency, fans …). */
import { NumberInput, SegmentedControl, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';
import { HASHRATE_PERCENT_MAX, HASHRATE_PERCENT_MIN, type MinerBatchOp } from '@shared/schemas/batch-operations';
import { type DropdownName, useMinerOptions } from '../api/miners-api';
import type { BatchParams, PoolForm } from '../lib/batch-target';
import { SetPoolFields } from './set-pool-fields';

interface FieldsProps {
  op: MinerBatchOp;
  agentKey: string;
  values: BatchParams;
  onChange: (key: string, value: string | number | boolean) => void;
  errors: Record<string, string>;
  example: { ip: string; sn: string };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
/** The "no customer" choice of Change customer (names are trimmed: none starts with a space). */
const NO_CUSTOMER = ' no-customer';
const numOr = (v: unknown, d: number) => (typeof v === 'number' ? v : d);

/**
 * A choice from a farm dropdown (/api/options/*): `useText` keeps the option's text as the value (customers: the
 * batch names the customer, the dropdown's value is its id). While the list loads, fails or is empty, it says so.
 */
function OptionSelect({
  agentKey,
  name,
  field,
  label,
  value,
  onChange,
  error,
  useText = false,
  first = [],
}: {
  agentKey: string;
  name: DropdownName;
  field: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  useText?: boolean;
  /** Choices offered before the list's (e.g. "no customer"). */
  first?: { value: string; label: string }[];
}) {
  const { t } = useTranslation('miners');
  const options = useMinerOptions(agentKey, name, true);
  const data = [...first, ...(options.data ?? []).map((o) => ({ value: useText ? o.text : o.value, label: o.text }))];
  return (
    <Select
      label={label}
      required
      searchable
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      data={data}
      placeholder={options.isError ? t('filters.optionsFailed') : undefined}
      nothingFoundMessage={options.isPending ? t('state.loading') : t('filters.noOptions')}
      error={error}
      comboboxProps={{ withinPortal: true }}
      data-testid={`batch-field-${field}`}
    />
  );
}

export function BatchOpFields({ op, agentKey, values, onChange, errors, example }: FieldsProps) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  const text = (key: string, label: string, required = false) => (
    <TextInput key={key} label={label} required={required} value={str(values[key])} onChange={(e) => onChange(key, e.currentTarget.value)} error={errors[key]} data-testid={`batch-field-${key}`} />
  );
  // An emptied field stays empty (''): it is required, never read as 0 (fans at 0 %, or a silent 65 % hashrate).
  const number = (key: string, label: string, min: number, max: number, d: number, description?: string) => (
    <NumberInput
      key={key}
      label={label}
      description={description}
      required
      min={min}
      max={max}
      clampBehavior="blur"
      allowDecimal={false}
      allowNegative={false}
      hideControls={phone}
      value={values[key] === '' ? '' : numOr(values[key], d)}
      onChange={(v) => onChange(key, v === '' ? '' : typeof v === 'number' ? v : Number(v))}
      error={errors[key]}
      data-testid={`batch-field-${key}`}
    />
  );

  switch (op) {
    case 'batchBlink':
      return (
        <SegmentedControl
          size={phone ? 'md' : 'sm'}
          value={values.on === false ? 'off' : 'on'}
          onChange={(v) => onChange('on', v === 'on')}
          data={[
            { value: 'on', label: t('batch.fields.lightOn') },
            { value: 'off', label: t('batch.fields.lightOff') },
          ]}
          data-testid="batch-field-on"
        />
      );
    case 'batchChangeWorkMode':
      return (
        <Select
          label={t('batch.fields.mode')}
          value={str(values.mode)}
          onChange={(v) => v && onChange('mode', v)}
          allowDeselect={false}
          data={[
            { value: 'normal', label: t('batch.fields.modeNormal') },
            { value: 'sleep', label: t('batch.fields.modeSleep') },
            { value: 'low-power', label: t('batch.fields.modeLowPower') },
          ]}
          error={errors.mode}
          data-testid="batch-field-mode"
        />
      );
    case 'batchUpgrade':
      return (
        <Stack gap="xs">
          {text('fileUrl', t('batch.fields.fileUrl'), true)}
          {text('fileName', t('batch.fields.fileName'))}
          {/* A finger's target on a phone: the track 30 px, the label a row as tall (the default switch is 20 px tall). */}
          <Switch
            size={phone ? 'lg' : 'sm'}
            styles={phone ? { body: { alignItems: 'center' }, label: { paddingBlock: 4, fontSize: 'var(--mantine-font-size-sm)' } } : undefined}
            label={t('batch.fields.keepSettings')}
            checked={values.keepSettings !== false}
            onChange={(e) => onChange('keepSettings', e.currentTarget.checked)}
            data-testid="batch-field-keepSettings"
          />
        </Stack>
      );
    case 'batchCustomer':
      // "No customer" clears the miners' customer (clear=true); a name sets it.
      return (
        <OptionSelect
          agentKey={agentKey}
          name="customer"
          field="customer"
          label={t('batch.fields.customer')}
          value={values.clear === true ? NO_CUSTOMER : str(values.customer)}
          onChange={(v) => {
            onChange('clear', v === NO_CUSTOMER);
            onChange('customer', v === NO_CUSTOMER ? '' : v);
          }}
          error={errors.customer}
          useText
          first={[{ value: NO_CUSTOMER, label: t('batch.fields.noCustomer') }]}
        />
      );
    case 'batchAccident':
      return (
        <Stack gap="xs">
          <OptionSelect agentKey={agentKey} name="accidentList" field="accident" label={t('batch.fields.accident')} value={str(values.accident)} onChange={(v) => onChange('accident', v)} error={errors.accident} />
          {text('note', t('batch.fields.note'))}
        </Stack>
      );
    // Which miners take the tuning ops (spec 3 §5), said before running: the others are refused with a reason.
    case 'batchAdjustHashRate':
      return number('percent', t('batch.fields.hashratePercent'), HASHRATE_PERCENT_MIN, HASHRATE_PERCENT_MAX, HASHRATE_PERCENT_MAX, t('batch.fields.hashrateApplies'));
    case 'batchSetFrequency':
      return number('freqMhz', t('batch.fields.freqMhz'), 1, 2000, 500, t('batch.fields.freqApplies'));
    case 'batchChangePowerPercent':
      return number('percent', t('batch.fields.powerPercent'), 1, 100, 100, t('batch.fields.powerApplies'));
    case 'batchSetFans':
      return (
        <Stack gap="xs">
          <Select
            label={t('batch.fields.fanMode')}
            value={str(values.mode)}
            onChange={(v) => v && onChange('mode', v)}
            allowDeselect={false}
            data={[
              { value: 'auto', label: t('batch.fields.fanAuto') },
              { value: 'manual', label: t('batch.fields.fanManual') },
            ]}
            data-testid="batch-field-fan-mode"
          />
          {values.mode === 'manual' && number('percent', t('batch.fields.fanPercent'), 0, 100, 100)}
        </Stack>
      );
    case 'batchSetPool':
      return <SetPoolFields agentKey={agentKey} form={values as unknown as PoolForm} onChange={onChange} errors={errors} example={example} />;
    default:
      return null;
  }
}
