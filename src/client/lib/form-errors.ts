/**
 * Form validation messages: zod schemas in src/shared carry i18n keys of namespace `errors`
 * ('validation.email'); the server may answer `data.fields` with keys or with already localised text.
 */
import type { FormErrors } from '@mantine/form';
import type { TFunction } from 'i18next';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import type { $ZodType } from 'zod/v4/core';

export function translateError(t: TFunction, message: string): string {
  return t(`errors:${message}`, { defaultValue: message });
}

export function translateErrors(t: TFunction, errors: FormErrors): FormErrors {
  const out: FormErrors = {};
  for (const [field, message] of Object.entries(errors)) out[field] = typeof message === 'string' ? translateError(t, message) : message;
  return out;
}

/** A Mantine form `validate` function from a shared zod schema, with translated messages. */
export function zodValidate(schema: $ZodType, t: TFunction): (values: Record<string, unknown>) => FormErrors {
  const resolve = zod4Resolver(schema);
  return (values) => translateErrors(t, resolve(values));
}
