import { zod4Resolver } from 'mantine-form-zod-resolver';
import { CreateFarmBody, UpdateFarmBody } from '@shared/schemas/farm';
import type { FarmInfo } from '@shared/schemas/farm';
import type { FarmBody } from '../api/farm-mutations';

export type FarmFormMode = 'create' | 'edit';

export interface FarmFormValues {
  agentName: string;
  agentKey: string;
  noticeEmails: string;
  agentAddr: string;
  selfManaged: boolean;
}

export const EMPTY_FARM_FORM: FarmFormValues = {
  agentName: '',
  agentKey: '',
  noticeEmails: '',
  agentAddr: '',
  selfManaged: false,
};

export function farmToFormValues(farm: FarmInfo | undefined): FarmFormValues {
  if (!farm) return { ...EMPTY_FARM_FORM };
  return {
    agentName: farm.name,
    agentKey: farm.agentKey,
    noticeEmails: farm.noticeEmails,
    agentAddr: farm.agentAddr,
    selfManaged: farm.selfManaged,
  };
}

/**
 * Validates the farm form with the server's own request schema (spec 2 §5 Farm rules).
 * Answers field → i18n key of namespace `errors`; the first problem of a field wins.
 */
export function validateFarmForm(values: FarmFormValues, mode: FarmFormMode): Record<string, string> {
  const schema = mode === 'create' ? CreateFarmBody : UpdateFarmBody;
  const errors = zod4Resolver(schema, { errorPriority: 'first' })({ ...values });
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, String(v)]));
}

/** The body sent to createv2 / updatev2: trimmed, e-mails normalised to "a@x.io,b@y.io". */
export function toFarmBody(values: FarmFormValues): FarmBody {
  return {
    agentName: values.agentName.trim(),
    agentKey: values.agentKey.trim(),
    noticeEmails: values.noticeEmails
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .join(','),
    agentAddr: values.agentAddr.trim(),
    selfManaged: values.selfManaged,
  };
}
