/**
 * The fields of the batch set-pool op: "fill from pool group" (the farm's pool groups, GET /api/minerv2/poolQuery),
 * pool 1–3 with URL, worker — a sub-account can be picked for it (GET /api/minerv2/poolSubAccountQuery) — and
 * password, then the worker suffix with an example. Filling follows lib/pool-fill.ts; the fields stay editable.
 */
import { Fragment, useState } from 'react';
import { ActionIcon, Combobox, Grid, PasswordInput, ScrollArea, Select, Stack, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { usePhone } from '@client/lib/use-phone';
import { IconUserSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SUB_ACCOUNT_CHOICES_MAX } from '@shared/schemas/pool';
import { usePoolGroupChoices, useSubAccountChoices } from '../api/batch-api';
import { type PoolForm, workerPreview } from '../lib/batch-target';
import { POOL_SLOTS, type PoolSlot, changedFields, fillFromGroup, matchesGroup, withSubAccount } from '../lib/pool-fill';

interface SetPoolFieldsProps {
  agentKey: string;
  form: PoolForm;
  onChange: (key: string, value: string) => void;
  errors: Record<string, string>;
  example: { ip: string; sn: string };
}

export function SetPoolFields({ agentKey, form, onChange, errors, example }: SetPoolFieldsProps) {
  const { t } = useTranslation('miners');
  const groups = usePoolGroupChoices(agentKey);
  const [groupId, setGroupId] = useState<string | null>(null);
  const chosen = groups.data?.find((g) => g.id === groupId);
  // The choice shows while the pools are still the group's: after an edit the form is the operator's own.
  const shown = chosen && matchesGroup(form, chosen) ? chosen.id : null;
  const apply = (next: PoolForm) => {
    for (const [key, value] of changedFields(form, next)) onChange(key, value);
  };

  const pickGroup = (id: string | null) => {
    setGroupId(id);
    const group = groups.data?.find((g) => g.id === id);
    if (group) apply(fillFromGroup(form, group));
  };

  return (
    <Stack gap="xs">
      <Select
        label={t('batch.fields.fillFromGroup')}
        description={t('batch.fields.fillFromGroupHint')}
        placeholder={groups.isError ? t('filters.optionsFailed') : t('batch.fields.fillFromGroupPlaceholder')}
        searchable
        clearable
        value={shown}
        onChange={pickGroup}
        data={(groups.data ?? []).map((g) => ({ value: g.id, label: g.customer ? `${g.name} · ${g.customer}` : g.name }))}
        renderOption={({ option }) => {
          const g = groups.data?.find((x) => x.id === option.value);
          return (
            <Stack gap={0}>
              <Text size="sm">{g?.name ?? option.label}</Text>
              <Text size="xs" c="dimmed">
                {[g?.customer, t('batch.fields.groupPools', { count: g?.pools.length ?? 0 })].filter(Boolean).join(' · ')}
              </Text>
            </Stack>
          );
        }}
        nothingFoundMessage={groups.isPending ? t('state.loading') : groups.isError ? t('filters.optionsFailed') : t('batch.fields.noGroups')}
        comboboxProps={{ withinPortal: true }}
        data-testid="batch-field-poolGroup"
      />
      {POOL_SLOTS.map((n) => (
        <Fragment key={n}>
          <Text size="sm" fw={500}>
            {t('batch.fields.pool', { n })}
          </Text>
          {/* One row on a wide screen; on a phone the URL takes the whole width, worker and password share the next row. */}
          <Grid gap="xs" align="flex-start" data-testid={`batch-pool-${n}`}>
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <TextInput
                label={t('batch.fields.poolUrl')}
                required={n === 1}
                value={form[`pool${n}Url`]}
                onChange={(e) => onChange(`pool${n}Url`, e.currentTarget.value)}
                error={errors[`pool${n}Url`]}
                data-testid={`batch-field-pool${n}Url`}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>
              <TextInput
                label={t('batch.fields.poolUser')}
                required={n === 1}
                value={form[`pool${n}User`]}
                onChange={(e) => onChange(`pool${n}User`, e.currentTarget.value)}
                error={errors[`pool${n}User`]}
                rightSection={<SubAccountPicker agentKey={agentKey} n={n} onPick={(name) => apply(withSubAccount(form, n, name))} />}
                rightSectionPointerEvents="all"
                data-testid={`batch-field-pool${n}User`}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>
              <PasswordInput label={t('batch.fields.poolPassword')} value={form[`pool${n}Password`]} onChange={(e) => onChange(`pool${n}Password`, e.currentTarget.value)} />
            </Grid.Col>
          </Grid>
        </Fragment>
      ))}
      <Select
        label={t('batch.fields.workerSuffix')}
        value={form.workerSuffix}
        onChange={(v) => v && onChange('workerSuffix', v)}
        allowDeselect={false}
        data={[
          { value: 'none', label: t('batch.fields.suffixNone') },
          { value: 'ip', label: t('batch.fields.suffixIp') },
          { value: 'sn', label: t('batch.fields.suffixSn') },
        ]}
        data-testid="batch-field-workerSuffix"
      />
      <Text size="xs" c="dimmed" data-testid="batch-worker-preview">
        {/* Before a worker is typed the example names it in the interface's language (not an English "worker"). */}
        {t('batch.fields.workerPreview', { name: workerPreview(form.pool1User, form.workerSuffix, example, t('batch.fields.workerUnset')) })}
      </Text>
    </Stack>
  );
}

/**
 * A button inside a pool's worker field that opens the farm's sub-accounts (searched on the server as one types)
 * and puts the chosen account's name into that worker. The list is asked for only while it is open.
 */
function SubAccountPicker({ agentKey, n, onPick }: { agentKey: string; n: PoolSlot; onPick: (accountName: string) => void }) {
  const { t } = useTranslation('miners');
  const [search, setSearch] = useState('');
  const [keyword] = useDebouncedValue(search.trim(), 250);
  const combobox = useCombobox({
    onDropdownOpen: () => combobox.focusSearchInput(),
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setSearch('');
    },
  });
  const subs = useSubAccountChoices(agentKey, keyword, combobox.dropdownOpened);
  const list = subs.data ?? [];
  const label = t('batch.fields.pickSubAccount', { n });
  const phone = usePhone();

  return (
    <Combobox
      store={combobox}
      width={280}
      position="bottom-end"
      withinPortal
      onOptionSubmit={(id) => {
        const s = list.find((x) => x.id === id);
        if (s) onPick(s.accountName);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target withAriaAttributes={false}>
        <ActionIcon variant="subtle" color="gray" size={phone ? 'lg' : 'md'} aria-label={label} title={label} onClick={() => combobox.toggleDropdown()} data-testid={`batch-pool-${n}-pick`}>
          <IconUserSearch size={16} />
        </ActionIcon>
      </Combobox.Target>
      <Combobox.Dropdown data-testid={`batch-pool-${n}-subaccounts`}>
        <Combobox.Search value={search} onChange={(e) => setSearch(e.currentTarget.value)} placeholder={t('batch.fields.searchSubAccounts')} aria-label={t('batch.fields.searchSubAccounts')} />
        <Combobox.Options>
          <ScrollArea.Autosize mah={240} type="scroll">
            {list.length > 0 ? (
              list.map((s) => (
                <Combobox.Option value={s.id} key={s.id}>
                  <Text size="sm">{s.accountName}</Text>
                  <Text size="xs" c="dimmed">
                    {s.poolName} · {s.coinType}
                  </Text>
                </Combobox.Option>
              ))
            ) : (
              <Combobox.Empty>{subs.isPending ? t('state.loading') : subs.isError ? t('filters.optionsFailed') : t('batch.fields.noSubAccounts')}</Combobox.Empty>
            )}
          </ScrollArea.Autosize>
        </Combobox.Options>
        {list.length >= SUB_ACCOUNT_CHOICES_MAX && (
          <Combobox.Footer>
            <Text size="xs" c="dimmed">
              {t('batch.fields.subAccountsMore', { max: SUB_ACCOUNT_CHOICES_MAX })}
            </Text>
          </Combobox.Footer>
        )}
      </Combobox.Dropdown>
    </Combobox>
  );
}
