import { describe, expect, it } from 'vitest';
import { loginErrorKind, offersJump } from './login-error-codes';

describe('login-error codes (spec 1 §2.1)', () => {
  it('maps 1, 2, 3 and anything else', () => {
    expect(loginErrorKind('1')).toBe('contactAdmin');
    expect(loginErrorKind('2')).toBe('bindEmail');
    expect(loginErrorKind('3')).toBe('bindPhone');
    expect(loginErrorKind('4')).toBe('server');
    expect(loginErrorKind(null)).toBe('server');
  });
  it('offers "jump now" for 2 and 3 only', () => {
    expect(['1', '2', '3', 'x'].map((c) => offersJump(loginErrorKind(c)))).toEqual([false, true, true, false]);
  });
});
