import { z } from 'zod';
import { AREA_CODE_RE, EMAIL_RE, LIMITS, MOBILE_RE, USER_NAME_RE } from '../validation';

const userName = z.string().trim().regex(USER_NAME_RE, 'validation.userName');
const password = z.string().min(LIMITS.passwordMin, 'validation.passwordMin').max(LIMITS.passwordMax, 'validation.passwordMax');
const optionalEmail = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .refine((v) => v === undefined || EMAIL_RE.test(v), 'validation.email');

export const SetupBody = z.object({ user: userName, password, email: optionalEmail });
export const LoginBody = z.object({ user: z.string().trim().min(1, 'validation.userRequired').max(64), password: z.string().min(1, 'validation.passwordRequired').max(LIMITS.passwordMax) });
export const ChangePasswordBody = z
  .object({ oldPassword: z.string().min(1, 'validation.passwordRequired'), newPassword: password })
  .refine((b) => b.oldPassword !== b.newPassword, { message: 'validation.samePassword', path: ['newPassword'] });
export const BindEmailBody = z.object({ email: z.string().trim().regex(EMAIL_RE, 'validation.email') });
export const BindMobileBody = z.object({
  mobile: z.string().trim().regex(MOBILE_RE, 'validation.mobile'),
  areaCode: z.string().trim().regex(AREA_CODE_RE, 'validation.areaCode').default(LIMITS.defaultAreaCode),
});

/** GET /api/userv2/userCurrent and /api/userv2/info. */
export interface CurrentUser {
  id: string;
  user: string;
  email: string | null;
  mobile: string | null;
  areaCode: string;
  isAdmin: boolean;
  roleId: string | null;
  roleName: string | null;
}

/** GET /api/userv2/search: contact users of a farm (their phone and e-mail masked: "+86 ***8000", "o***@farm.example"; null when none). */
export interface ContactUser {
  id: string;
  user: string;
  mobile: string | null;
  email: string | null;
  areaCode: string;
}

/** GET /api/config/public: runtime settings the console needs before login. */
export interface PublicConfig {
  setupNeeded: boolean;
  version: string;
  promoUrl: string | null;
  supportChat: { zh: string | null; other: string | null };
  analyticsEndpoint: string;
  accountCenterUrl: string;
}
