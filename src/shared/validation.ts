/** Validation rules from the spec shared by server routes and client forms. Messages are i18n keys of namespace 'errors'. */
export const LIMITS = {
  farmNameMax: 100,
  customerNameMax: 50,
  userNameMin: 3,
  userNameMax: 32,
  passwordMin: 8,
  passwordMax: 128,
  snLength: 17,
  /** A technician's note or fault note on a miner (miner notes). */
  minerNoteMax: 500,
  mobileMin: 7,
  mobileMax: 11,
  defaultAreaCode: '86',
  notificationPageSize: 5,
  tablePageSizes: [50, 100] as const,
} as const;

export const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
export const MOBILE_RE = /^\d{7,11}$/;
export const AREA_CODE_RE = /^\d{1,4}$/;
export const AGENT_KEY_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{1,63}$/;
export const USER_NAME_RE = /^[A-Za-z0-9_.@-]{3,32}$/;

export function isIPv4(value: string): boolean {
  const parts = value.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** noticeEmails: comma-separated valid e-mails (spec 2 §5), empty allowed. */
export function isEmailList(value: string): boolean {
  if (value.trim() === '') return true;
  return value.split(',').every((p) => EMAIL_RE.test(p.trim()));
}

export const REGIONS = ['us', 'me', 'eu', 'auto', 'sg'] as const;
export type Region = (typeof REGIONS)[number];

/** Spec 1 §4: this special agent key is locked to region "me". */
export const REGION_LOCKED_AGENT_KEY = 'me-fixed';

export const LOCALES = ['zh-CN', 'en-US', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

export function normaliseLocale(value: string | undefined | null): Locale | null {
  if (!value) return null;
  const v = value.toLowerCase();
  if (v.startsWith('zh')) return 'zh-CN';
  if (v.startsWith('en')) return 'en-US';
  if (v.startsWith('ru')) return 'ru';
  return null;
}
