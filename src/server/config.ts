/** Server configuration from the environment (README "Configuration" lists every variable). */
import path from 'node:path';
import { DEFAULT_HISTORY_RETENTION, type HistoryRetention } from './jobs/prune-history';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Directory of the built console (vite build); null = API only. */
  distDir: string | null;
  sessionTtlHours: number;
  cookieSecure: boolean;
  loginRateLimit: { max: number; windowSec: number };
  promoUrl: string | null;
  supportChatZh: string | null;
  supportChatOther: string | null;
  analyticsEndpoint: string;
  accountCenterUrl: string;
  logLevel: string;
  trustProxy: boolean;
  version: string;
  /** SECRET_KEY: 32 bytes as base64 or hex, encrypts stored secrets; null = a key file generated under dataDir. Never logged. */
  secretKey: string | null;
  /** Verification-code mail (SMTP_URL, e.g. smtp://user:pass@host:587; null = e-mail codes unavailable) and sender (MAIL_FROM). */
  smtpUrl: string | null;
  mailFrom: string;
  /** SMS codes through a generic JSON POST provider (SMS_HTTP_URL, SMS_HTTP_TOKEN); null = log-only. */
  smsHttpUrl: string | null;
  smsHttpToken: string | null;
  /** OBSERVER_ALLOW_PRIVATE=true: the observer-link test may fetch private and loopback addresses (tests, the demo, a pool on the farm's LAN). */
  observerAllowPrivate: boolean;
  /** Days of history kept (HISTORY_MINUTE_DAYS, HISTORY_HOUR_DAYS, HISTORY_MINER_HOUR_DAYS; jobs/prune-history.ts). */
  historyRetention: HistoryRetention;
}

const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
const str = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dist = env.SERVE_DIST === '' || env.SERVE_DIST === 'false' ? null : path.resolve(env.SERVE_DIST ?? 'dist');
  return {
    port: num(env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: str(env.DATABASE_URL),
    distDir: dist,
    sessionTtlHours: num(env.SESSION_TTL_HOURS, 24 * 7),
    cookieSecure: env.COOKIE_SECURE === 'true',
    loginRateLimit: { max: num(env.LOGIN_RATE_MAX, 10), windowSec: num(env.LOGIN_RATE_WINDOW_SEC, 900) },
    promoUrl: str(env.PROMO_URL),
    supportChatZh: str(env.SUPPORT_CHAT_ZH_URL),
    supportChatOther: str(env.SUPPORT_CHAT_URL),
    analyticsEndpoint: env.ANALYTICS_ENDPOINT ?? '/api/analytics/pageview',
    accountCenterUrl: env.ACCOUNT_CENTER_URL ?? '/user/center',
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === 'true',
    version: env.npm_package_version ?? '0.1.0',
    secretKey: str(env.SECRET_KEY),
    smtpUrl: str(env.SMTP_URL),
    mailFrom: env.MAIL_FROM ?? 'Hashfield <no-reply@hashfield.local>',
    smsHttpUrl: str(env.SMS_HTTP_URL),
    smsHttpToken: str(env.SMS_HTTP_TOKEN),
    observerAllowPrivate: env.OBSERVER_ALLOW_PRIVATE === 'true',
    historyRetention: {
      farmMinuteDays: Math.max(1, num(env.HISTORY_MINUTE_DAYS, DEFAULT_HISTORY_RETENTION.farmMinuteDays)),
      farmHourDays: Math.max(1, num(env.HISTORY_HOUR_DAYS, DEFAULT_HISTORY_RETENTION.farmHourDays)),
      minerHourDays: Math.max(1, num(env.HISTORY_MINER_HOUR_DAYS, DEFAULT_HISTORY_RETENTION.minerHourDays)),
    },
    ...overrides,
  };
}
