/**
 * API region selector (spec 1 §2.2, §4): width 100. Shows "me" and is locked for the special farm key;
 * otherwise enabled only when the server says the region may change (RegionInfo.canChange: region is auto,
 * or the NUC is offline, or an override flag). Choosing stores the choice locally, saves it for the farm
 * (updateAgentRegion, JSON) and refreshes every query.
 */
import { Select } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REGION_LOCKED_AGENT_KEY, REGIONS, type Region } from '@shared/validation';
import type { RegionInfo } from '@shared/schemas/farm';
import { api, ApiError } from '@client/lib/api-client';
import { useAgentKey } from '@client/lib/agent-key';
import { sessionKeys, useRegion } from '@client/lib/session-api';
import { writeStorage } from '@client/lib/safe-storage';

export const API_REGION_STORAGE_KEY = 'hf.apiRegion';

/** The API domain name stored for a region (spec 1 §7): api-{region}, or the plain host for auto. */
export function apiDomainFor(region: Region, host: string): string {
  return region === 'auto' ? host : `api-${region}`;
}

export interface RegionState {
  value: Region | null;
  disabled: boolean;
}

export function regionState(agentKey: string | null, info: RegionInfo | undefined): RegionState {
  if (agentKey === REGION_LOCKED_AGENT_KEY) return { value: 'me', disabled: true };
  if (!agentKey || !info) return { value: info?.region ?? null, disabled: true };
  return { value: info.region, disabled: !info.canChange };
}

export function RegionSelect() {
  const { t } = useTranslation('shell');
  const agentKey = useAgentKey();
  const region = useRegion();
  const queryClient = useQueryClient();
  const state = regionState(agentKey, region.data);

  const save = useMutation({
    mutationFn: (next: Region) => api.post<RegionInfo>('/api/agent/updateAgentRegion', { agentKey: agentKey ?? '', region: next, read: 1 }, { as: 'json' }),
    onMutate: (next) => writeStorage('local', API_REGION_STORAGE_KEY, apiDomainFor(next, window.location.host)),
    onSuccess: (info) => {
      if (agentKey) queryClient.setQueryData(sessionKeys.region(agentKey), info);
      void queryClient.invalidateQueries();
    },
    onError: (err) => notifications.show({ color: 'red', message: err instanceof ApiError ? err.message : t('region.saveFailed') }),
  });

  return (
    <Select
      aria-label={t('region.label')}
      w={100}
      data={REGIONS.map((r) => ({ value: r, label: t(`region.${r}`) }))}
      value={state.value}
      disabled={state.disabled || save.isPending}
      allowDeselect={false}
      placeholder={t('region.placeholder')}
      onChange={(v) => {
        if (v && v !== state.value) save.mutate(v as Region);
      }}
      comboboxProps={{ width: 160 }}
      data-testid="region-select"
    />
  );
}
