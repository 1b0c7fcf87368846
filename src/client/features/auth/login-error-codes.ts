/**
 * Login-error page codes (spec 1 §2.1): 1 = ask the administrator to change the login info; 2 = bind an
 * e-mail in the user center first; 3 = bind a phone number first; anything else = generic server error.
 */
export type LoginErrorKind = 'contactAdmin' | 'bindEmail' | 'bindPhone' | 'server';

export function loginErrorKind(code: string | null | undefined): LoginErrorKind {
  switch ((code ?? '').trim()) {
    case '1':
      return 'contactAdmin';
    case '2':
      return 'bindEmail';
    case '3':
      return 'bindPhone';
    default:
      return 'server';
  }
}

/** Codes 2 and 3 offer "jump now" to the account center. */
export function offersJump(kind: LoginErrorKind): boolean {
  return kind === 'bindEmail' || kind === 'bindPhone';
}
