/**
 * The header's farm (agent) selector (spec 1 §2.2, §4). Options are /api/options/agent; choosing one stores
 * the agentKey (tab + last farm), which re-keys the region, self-miner and menu queries, then navigates to /
 * unless the current page is farm-independent (catalogue group 'defaults').
 */
import { Select } from '@mantine/core';
import { IconBuildingWarehouse } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { setAgentKey, useAgentKey } from '@client/lib/agent-key';
import { useFarmOptions } from '@client/lib/session-api';
import { staysOnFarmSwitch } from '../sidebar-model';

export interface FarmSelectProps {
  width?: number | string;
}

export function FarmSelect({ width = 220 }: FarmSelectProps) {
  const { t } = useTranslation('shell');
  const agentKey = useAgentKey();
  const farms = useFarmOptions();
  const navigate = useNavigate();
  const location = useLocation();
  const data = (farms.data ?? []).map((o) => ({ value: o.value, label: o.text }));

  const handleChange = (value: string | null) => {
    if (!value || value === agentKey) return;
    setAgentKey(value);
    if (!staysOnFarmSwitch(location.pathname)) navigate('/');
  };

  return (
    <Select
      aria-label={t('farm.label')}
      placeholder={farms.isPending ? t('farm.loading') : t('farm.none')}
      data={data}
      value={agentKey && data.some((d) => d.value === agentKey) ? agentKey : null}
      onChange={handleChange}
      searchable={data.length > 6}
      allowDeselect={false}
      nothingFoundMessage={t('farm.nothingFound')}
      leftSection={<IconBuildingWarehouse size={16} />}
      w={width}
      miw={0}
      comboboxProps={{ width: 260, position: 'bottom-start' }}
      data-testid="farm-select"
    />
  );
}
