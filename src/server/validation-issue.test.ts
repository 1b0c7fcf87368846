import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueMessage } from './validation-issue';

/** The message of the first issue of `value` against `schema`, as the envelope derives it. */
function messageOf(schema: z.ZodType, value: unknown) {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a failure');
  const { code, message, path: _path, ...detail } = r.error.issues[0]!;
  return issueMessage(message, code, detail);
}

describe('issueMessage', () => {
  it("keeps a schema's own key", () => {
    expect(messageOf(z.string().min(3, 'validation.userName'), 'a')).toEqual({ key: 'validation.userName' });
  });

  it('names the broken limit of strings, numbers and lists', () => {
    expect(messageOf(z.string().max(200), 'x'.repeat(201))).toEqual({ key: 'validation.maxChars', vars: { max: 200 } });
    expect(messageOf(z.string().min(8), 'short')).toEqual({ key: 'validation.minChars', vars: { min: 8 } });
    expect(messageOf(z.string().min(1), '')).toEqual({ key: 'validation.required' });
    expect(messageOf(z.coerce.number().int().max(1000), '5000')).toEqual({ key: 'validation.maxNumber', vars: { max: 1000 } });
    expect(messageOf(z.coerce.number().min(65), '10')).toEqual({ key: 'validation.minNumber', vars: { min: 65 } });
    expect(messageOf(z.array(z.string()).max(2), ['a', 'b', 'c'])).toEqual({ key: 'validation.maxItems', vars: { max: 2 } });
  });

  it('tells a missing value, a number expected and a value outside a set', () => {
    expect(messageOf(z.object({ a: z.string() }), {})).toEqual({ key: 'validation.required' });
    expect(messageOf(z.number(), 'abc')).toEqual({ key: 'validation.number' });
    expect(messageOf(z.enum(['asc', 'desc']), 'up')).toEqual({ key: 'validation.oneOf', vars: { values: 'asc, desc' } });
    expect(messageOf(z.string().uuid(), 'nope')).toEqual({ key: 'validation.invalid' });
  });
});
