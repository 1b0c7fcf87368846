/** The message key of one failed check: our schemas carry keys (`validation.x`); zod's own messages become required / invalid. */
export function issueKey(message: string, keyword: string): string {
  if (/^validation\.[A-Za-z]+$/.test(message)) return message;
  if (keyword === 'invalid_type' && /received undefined/.test(message)) return 'validation.required';
  return 'validation.invalid';
}
