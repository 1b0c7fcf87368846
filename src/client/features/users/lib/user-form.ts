import { zod4Resolver } from 'mantine-form-zod-resolver';
import { SaveUserBody as SaveUserSchema } from '@shared/schemas/access';
import type { UserRow } from '@shared/schemas/access';
import { LIMITS } from '@shared/validation';
import type { SaveUserBody } from '../api/user-mutations';

export interface UserFormValues {
  user: string;
  password: string;
  email: string;
  mobile: string;
  areaCode: string;
  roleId: string | null;
  agentKeys: string[];
  disabled: boolean;
}

export function userToFormValues(row: UserRow | undefined): UserFormValues {
  return {
    user: row?.user ?? '',
    password: '',
    email: row?.email ?? '',
    mobile: row?.mobile ?? '',
    areaCode: row?.areaCode || LIMITS.defaultAreaCode,
    roleId: row?.roleId ?? null,
    agentKeys: row?.agentKeys ?? [],
    disabled: row?.disabled ?? false,
  };
}

/**
 * Validates the user form with the server's schema; the password is required when creating and
 * optional when editing (empty = unchanged). Answers field → `errors` key.
 */
export function validateUserForm(values: UserFormValues, mode: 'create' | 'edit'): Record<string, string> {
  const errors: Record<string, string> = {};
  const found = zod4Resolver(SaveUserSchema, { errorPriority: 'first' })({
    user: values.user,
    password: values.password,
    email: values.email,
    mobile: values.mobile,
    areaCode: values.areaCode,
    roleId: values.roleId ?? '',
    agentKeys: values.agentKeys,
    disabled: values.disabled,
  });
  for (const [k, v] of Object.entries(found)) errors[k] = String(v);
  if (mode === 'create' && values.password === '') errors.password = 'validation.passwordRequired';
  // The schema checks roleId as a uuid; the form only needs "a role was chosen".
  if (values.roleId) delete errors.roleId;
  else errors.roleId = 'validation.roleRequired';
  return errors;
}

export function toSaveUserBody(values: UserFormValues, id: string | undefined): SaveUserBody {
  // E-mail and mobile are always sent: an empty value clears them.
  return {
    ...(id ? { id } : {}),
    user: values.user.trim(),
    ...(values.password !== '' ? { password: values.password } : {}),
    email: values.email.trim(),
    mobile: values.mobile.trim(),
    areaCode: values.areaCode.trim() || LIMITS.defaultAreaCode,
    roleId: values.roleId ?? '',
    agentKeys: values.agentKeys.join(','),
    disabled: values.disabled,
  };
}
