/**
 * The SN rule (spec 3 §5 and §9: "SN must be 17 characters"): what a scanned or typed serial number must be
 * before the console looks it up. Scanners and keyboards add spaces, line ends and lower case; those are
 * normalised away, the length is the rule. Isomorphic: used by the scanner screens and by server routes.
 */
import { LIMITS } from './validation';

export const SN_LENGTH = LIMITS.snLength;

/** Upper case, without surrounding white space and without the control characters some wedge scanners send. */
export function normaliseSn(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/[\u0000-\u001f\u007f]/g, '').trim().toUpperCase();
}

export type SnCheck = { ok: true; sn: string } | { ok: false; reason: 'empty' | 'length'; length: number };

/** Checks a scanned or typed SN: `length` when it is not exactly 17 characters after normalising. */
export function checkSn(raw: string): SnCheck {
  const sn = normaliseSn(raw);
  if (sn === '') return { ok: false, reason: 'empty', length: 0 };
  if ([...sn].length !== SN_LENGTH) return { ok: false, reason: 'length', length: [...sn].length };
  return { ok: true, sn };
}

export function isValidSn(raw: string): boolean {
  return checkSn(raw).ok;
}
