import { zod4Resolver } from 'mantine-form-zod-resolver';
import { SaveRoleBody as SaveRoleSchema } from '@shared/schemas/access';

export interface RoleFormValues {
  name: string;
  remark: string;
}

/** Name required (≤ 50), remark ≤ 200: the server's schema. Answers field → `errors` key. */
export function validateRoleForm(values: RoleFormValues): Record<string, string> {
  const found = zod4Resolver(SaveRoleSchema.pick({ name: true, remark: true }), { errorPriority: 'first' })({ ...values });
  return Object.fromEntries(Object.entries(found).map(([k, v]) => [k, String(v)]));
}
