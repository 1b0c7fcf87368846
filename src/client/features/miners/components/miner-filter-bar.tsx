/**
 * The list's filters (dropdowns fed by /api/options/*) and the IP / SN search. On phones the dropdowns fold
 * away behind a "Filters (n)" button; the search stays in view.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Collapse, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MinerFilter } from '@shared/schemas/miner';
import { type DropdownName, useMinerOptions } from '../api/miners-api';
import { type MinerFilterUpdate, activeFilterCount } from '../lib/miner-filter';
import { usePhone } from '@client/lib/use-phone';
import { errorCodeOptionText } from '@shared/miner-labels';
import { useMinerLabels } from '../lib/use-miner-labels';

type SelectKey = 'status' | 'faultType' | 'model' | 'firmware' | 'pool' | 'workMode' | 'network' | 'customer' | 'subArea' | 'accident' | 'errorCode';

const SELECTS: { key: SelectKey; option: DropdownName }[] = [
  { key: 'status', option: 'status' },
  { key: 'faultType', option: 'faultType' },
  { key: 'model', option: 'model' },
  { key: 'firmware', option: 'firmwareVersion' },
  { key: 'pool', option: 'poolUrl' },
  { key: 'workMode', option: 'workMode' },
  { key: 'network', option: 'network' },
  { key: 'customer', option: 'customer' },
  { key: 'subArea', option: 'area' },
  { key: 'accident', option: 'accidentList' },
  { key: 'errorCode', option: 'errorCode' },
];

/**
 * Dropdowns whose options are sentences (an error code with its message: '-104 Не в сети: соединение закрыто до ответа
 * (программа майнера зависла или перезапускается)'): on a desktop their list is wider than the 160 px field, where
 * such an option took six lines.
 */
const WIDE_DROPDOWN: ReadonlySet<SelectKey> = new Set<SelectKey>(['errorCode']);
const WIDE_DROPDOWN_PX = 420;

function FilterSelect({ agentKey, name, option, value, onChange, size }: { agentKey: string; name: SelectKey; option: DropdownName; value: string | undefined; onChange: (v: string | undefined) => void; size: 'xs' | 'sm' }) {
  const { t } = useTranslation('miners');
  const { locale } = useMinerLabels();
  const options = useMinerOptions(agentKey, option);
  const data = (options.data ?? []).map((o) => ({ value: o.value, label: o.text }));
  // A value from the address that the farm does not have (yet) is still shown: the agent's own error codes (why a miner
  // is offline) by their name, as the dropdown names them ('-110' alone said nothing once those miners were back).
  if (value && !data.some((d) => d.value === value)) {
    data.unshift({ value, label: name === 'errorCode' ? errorCodeOptionText(locale, value) : value });
  }
  const wide = size === 'xs' && WIDE_DROPDOWN.has(name);
  return (
    <Select
      size={size}
      label={t(`filters.${name}`)}
      placeholder={options.isError ? t('filters.optionsFailed') : t('filters.any')}
      data={data}
      value={value ?? null}
      onChange={(v) => onChange(v ?? undefined)}
      searchable
      clearable
      nothingFoundMessage={options.isPending ? t('state.loading') : t('filters.noOptions')}
      comboboxProps={wide ? { withinPortal: true, width: WIDE_DROPDOWN_PX, position: 'bottom-start' } : { withinPortal: true }}
      data-testid={`miner-filter-${name}`}
    />
  );
}

export interface MinerFilterBarProps {
  agentKey: string;
  filter: MinerFilter;
  onChange: (update: MinerFilterUpdate) => void;
}

export function MinerFilterBar({ agentKey, filter, onChange }: MinerFilterBarProps) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  // Tap targets of at least 32 px on a phone (the xs inputs and buttons are 30 px tall).
  const size = phone ? 'sm' : 'xs';
  const [open, setOpen] = useState(false);
  const [keyword, setKeyword] = useState(filter.keyword ?? '');
  // The keyword last sent to the address: a change of the address that is not ours (reset, back button, a
  // counter) replaces what is typed and drops a pending send; typing the same keyword again sends it again.
  const sent = useRef(filter.keyword ?? '');
  const send = (value: string) => {
    sent.current = value;
    onChange((f) => (value === (f.keyword ?? '') ? f : { ...f, keyword: value || undefined }));
  };
  const sendSettled = useDebouncedCallback((value: string) => send(value.trim()), 400);

  const outside = filter.keyword ?? '';
  useEffect(() => {
    if (outside === sent.current) return;
    sent.current = outside;
    sendSettled.cancel();
    setKeyword(outside);
  }, [outside, sendSettled]);

  const set = (key: SelectKey, v: string | undefined) => onChange((f) => ({ ...f, [key]: v }));
  const count = activeFilterCount({ ...filter, keyword: undefined });
  const selects = (
    <SimpleGrid cols={{ base: 1, xs: 2, sm: 4, lg: 7 }} spacing="xs" verticalSpacing="xs">
      {SELECTS.map((s) => (
        <FilterSelect key={s.key} agentKey={agentKey} name={s.key} option={s.option} value={filter[s.key]} onChange={(v) => set(s.key, v)} size={size} />
      ))}
    </SimpleGrid>
  );

  return (
    <div data-testid="miner-filter-bar">
      {/* On a phone the search keeps room to read what is typed (with "Filters (n)" and "Clear" beside it, Russian left it
          90 px): the buttons that do not fit go to the next line instead. */}
      <Group gap="xs" wrap={phone ? 'wrap' : 'nowrap'} align="flex-end">
        <TextInput
          size={size}
          style={{ flex: phone ? '1 1 190px' : 1, minWidth: 0, maxWidth: phone ? undefined : 320 }}
          leftSection={<IconSearch size={14} />}
          placeholder={t('filters.searchPlaceholder')}
          aria-label={t('filters.search')}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.currentTarget.value);
            sendSettled(e.currentTarget.value);
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            sendSettled.cancel();
            send(keyword.trim());
          }}
          data-testid="miner-search"
        />
        {phone && (
          <Button size={size} variant={count ? 'light' : 'default'} leftSection={<IconAdjustmentsHorizontal size={14} />} onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="miner-filters-toggle">
            {t('filters.toggle', { count })}
          </Button>
        )}
        {activeFilterCount(filter) > 0 && (
          <Button size={size} variant="subtle" leftSection={<IconFilterOff size={14} />} onClick={() => onChange(() => ({}))} data-testid="miner-filters-reset">
            {phone ? t('filters.resetShort') : t('filters.reset')}
          </Button>
        )}
      </Group>
      {phone ? (
        <Collapse expanded={open} mt="xs">
          {selects}
        </Collapse>
      ) : (
        <div style={{ marginTop: 'var(--mantine-spacing-xs)' }}>{selects}</div>
      )}
    </div>
  );
}
