/** A field's message: a key of the errors catalogue and the values it names. */
export interface FieldMessage {
  key: string;
  vars?: Record<string, string | number>;
}

/**
 * What zod tells of a failed check besides its code and message (fastify-type-provider-zod's `params`, or the issue
 * itself): origin, maximum, minimum, expected, values, as the issue kind has them.
 */
type IssueDetail = Readonly<Record<string, unknown>>;

/** The message key of one failed check: our schemas carry keys (`validation.x`); zod's own messages become required / invalid. */
export function issueKey(message: string, keyword: string): string {
  return issueMessage(message, keyword).key;
}

/**
 * The message of one failed check: our schemas' own key (`validation.x`) when they give one; else, from what zod
 * says, a message naming the limit that was broken (at most N characters, at least N, a number, one of …) instead
 * of a bare "invalid value".
 */
export function issueMessage(message: string, keyword: string, detail: IssueDetail = {}): FieldMessage {
  if (/^validation\.[A-Za-z]+$/.test(message)) return { key: message };
  const n = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? Number(v) : null);
  if (keyword === 'invalid_type') {
    if (/received undefined/.test(message)) return { key: 'validation.required' };
    if (detail.expected === 'number' || detail.expected === 'int') return { key: 'validation.number' };
  }
  if (keyword === 'too_big' && n(detail.maximum) !== null) {
    const max = n(detail.maximum)!;
    if (detail.origin === 'string') return { key: 'validation.maxChars', vars: { max } };
    if (detail.origin === 'array' || detail.origin === 'set') return { key: 'validation.maxItems', vars: { max } };
    if (detail.origin === 'number' || detail.origin === 'int' || detail.origin === 'bigint') return { key: 'validation.maxNumber', vars: { max } };
  }
  if (keyword === 'too_small' && n(detail.minimum) !== null) {
    const min = n(detail.minimum)!;
    if (detail.origin === 'string') return min <= 1 ? { key: 'validation.required' } : { key: 'validation.minChars', vars: { min } };
    if (detail.origin === 'array' || detail.origin === 'set') return { key: 'validation.minItems', vars: { min } };
    if (detail.origin === 'number' || detail.origin === 'int' || detail.origin === 'bigint') return { key: 'validation.minNumber', vars: { min } };
  }
  if (keyword === 'invalid_value' && Array.isArray(detail.values) && detail.values.length > 0 && detail.values.length <= 12) {
    return { key: 'validation.oneOf', vars: { values: detail.values.map(String).join(', ') } };
  }
  return { key: 'validation.invalid' };
}

/** Messages that do not say which field they are about (the answer's msg then names the field). */
export const GENERIC_MESSAGES: ReadonlySet<string> = new Set([
  'validation.required',
  'validation.invalid',
  'validation.number',
  'validation.maxChars',
  'validation.minChars',
  'validation.maxItems',
  'validation.minItems',
  'validation.maxNumber',
  'validation.minNumber',
  'validation.oneOf',
]);
