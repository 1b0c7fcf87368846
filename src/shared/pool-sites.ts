/**
 * Pools, coins and observer links (spec 2 §3, §5): the vocabularies behind the sub-account and pool-group
 * dialogs and the rules of an observer link. Pure and isomorphic.
 */
import { containsSensitivePoolWord } from './units';

/** Coins a sub-account or a hosting row can mine. */
export const COIN_TYPES = ['BTC', 'BCH', 'BSV', 'LTC', 'DOGE', 'ETC', 'KAS', 'DASH', 'ZEC', 'CKB'] as const;
export type CoinType = (typeof COIN_TYPES)[number];

/** Pools a sub-account can belong to (the poolName dropdown). */
export const POOL_NAMES = ['Hashfield Pool', 'AntPool', 'F2Pool', 'ViaBTC', 'Foundry USA', 'Luxor', 'Braiins Pool', 'Binance Pool', 'SpiderPool', 'Private pool'] as const;

/**
 * Pools whose observer page cannot be reached from the internet (a farm's own pool): a sub-account of one of
 * these is saved without a successful observer test (spec 2 §4 "unless a specific pool is chosen").
 */
export const OBSERVER_TEST_EXEMPT_POOLS: readonly string[] = ['Private pool'];

export function isObserverTestExempt(poolName: string): boolean {
  return OBSERVER_TEST_EXEMPT_POOLS.includes(poolName.trim());
}

/**
 * Hosted-miner sites: observer pages served by a hosting provider for many customers. Their links must name
 * the customer with an access key and a worker prefix (query parameters `access_key` and `prefix`).
 * A host is a hosted site when it is one of these or one of its labels contains "hosted".
 */
export const HOSTED_OBSERVER_HOSTS: readonly string[] = ['observer.hashfield-hosting.com', 'watch.minerhost.io', 'hosting.poolin.com'];
export const HOSTED_REQUIRED_PARAMS = ['access_key', 'prefix'] as const;

/** Prefixes a pool address may start with (spec 2 §5 "must start with {address}"). */
export const POOL_URL_PREFIXES = ['stratum+tcp://', 'stratum+ssl://', 'stratum2+tcp://'] as const;

/** Pools of one whitelist entry (spec 2 §9). */
export const POOL_WHITELIST_MAX = 3;

/** How long a successful observer test allows saving the sub-account. */
export const OBSERVER_TEST_VALID_MS = 10 * 60 * 1000;

/** Parses an http(s) URL; null for anything else. */
export function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export function isHostedObserverHost(host: string): boolean {
  const h = host.toLowerCase();
  return HOSTED_OBSERVER_HOSTS.some((s) => h === s || h.endsWith(`.${s}`)) || h.split('.').some((label) => label.includes('hosted'));
}

/**
 * The first problem of an observer link as an `errors:` key, or null when it may be tested:
 * missing, not an http(s) URL, a sensitive word, a hosted site without access key and prefix.
 */
export function observerUrlProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return 'validation.observerUrlRequired';
  const url = parseHttpUrl(value);
  if (!url) return 'validation.invalidUrl';
  if (containsSensitivePoolWord(value)) return 'validation.observerUrlSensitive';
  if (isHostedObserverHost(url.hostname) && !HOSTED_REQUIRED_PARAMS.every((p) => (url.searchParams.get(p) ?? '').trim() !== '')) return 'validation.observerUrlHosted';
  return null;
}

/** The first problem of a pool address as an `errors:` key, or null. */
export function poolUrlProblem(text: string): string | null {
  const value = text.trim();
  const lower = value.toLowerCase();
  if (!POOL_URL_PREFIXES.some((p) => lower.startsWith(p)) || lower.length <= lower.indexOf('://') + 3) return 'validation.poolUrlFormat';
  if (/\s/.test(value)) return 'validation.poolUrlFormat';
  if (containsSensitivePoolWord(value)) return 'validation.poolUrlSensitive';
  return null;
}

/** Telephone country codes for the area-code dropdown; mainland China (86) first, the default. */
export const AREA_CODES: readonly { code: string; country: string }[] = [
  { code: '86', country: 'China' },
  { code: '852', country: 'Hong Kong' },
  { code: '853', country: 'Macao' },
  { code: '886', country: 'Taiwan' },
  { code: '1', country: 'United States / Canada' },
  { code: '7', country: 'Russia / Kazakhstan' },
  { code: '44', country: 'United Kingdom' },
  { code: '49', country: 'Germany' },
  { code: '33', country: 'France' },
  { code: '34', country: 'Spain' },
  { code: '39', country: 'Italy' },
  { code: '31', country: 'Netherlands' },
  { code: '46', country: 'Sweden' },
  { code: '47', country: 'Norway' },
  { code: '354', country: 'Iceland' },
  { code: '358', country: 'Finland' },
  { code: '380', country: 'Ukraine' },
  { code: '375', country: 'Belarus' },
  { code: '374', country: 'Armenia' },
  { code: '995', country: 'Georgia' },
  { code: '996', country: 'Kyrgyzstan' },
  { code: '992', country: 'Tajikistan' },
  { code: '998', country: 'Uzbekistan' },
  { code: '993', country: 'Turkmenistan' },
  { code: '976', country: 'Mongolia' },
  { code: '81', country: 'Japan' },
  { code: '82', country: 'South Korea' },
  { code: '65', country: 'Singapore' },
  { code: '60', country: 'Malaysia' },
  { code: '66', country: 'Thailand' },
  { code: '84', country: 'Vietnam' },
  { code: '62', country: 'Indonesia' },
  { code: '63', country: 'Philippines' },
  { code: '91', country: 'India' },
  { code: '92', country: 'Pakistan' },
  { code: '971', country: 'United Arab Emirates' },
  { code: '966', country: 'Saudi Arabia' },
  { code: '974', country: 'Qatar' },
  { code: '968', country: 'Oman' },
  { code: '973', country: 'Bahrain' },
  { code: '965', country: 'Kuwait' },
  { code: '90', country: 'Türkiye' },
  { code: '98', country: 'Iran' },
  { code: '20', country: 'Egypt' },
  { code: '27', country: 'South Africa' },
  { code: '234', country: 'Nigeria' },
  { code: '251', country: 'Ethiopia' },
  { code: '254', country: 'Kenya' },
  { code: '61', country: 'Australia' },
  { code: '64', country: 'New Zealand' },
  { code: '52', country: 'Mexico' },
  { code: '55', country: 'Brazil' },
  { code: '54', country: 'Argentina' },
  { code: '56', country: 'Chile' },
  { code: '57', country: 'Colombia' },
  { code: '51', country: 'Peru' },
  { code: '595', country: 'Paraguay' },
  { code: '58', country: 'Venezuela' },
];
