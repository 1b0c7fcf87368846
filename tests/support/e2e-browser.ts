/**
 * E2E browser helpers: Debian Chromium driven by playwright-core, the two viewports of the acceptance
 * criteria (phone 360×740, desktop 1440×900), and API shortcuts to prepare data through the public API.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { snapshotBatch, uploadBatch } from './miner-snapshots';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const VIEWPORTS = {
  phone: { width: 360, height: 740 },
  desktop: { width: 1440, height: 900 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** `extraArgs`: more Chromium switches, e.g. the fake camera (`--use-file-for-fake-video-capture=…`). */
export async function launchBrowser(opts: { extraArgs?: string[] } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...(opts.extraArgs ?? [])], headless: true });
}

export interface ContextOptions {
  viewport?: ViewportName;
  locale?: string;
  serviceWorkers?: 'allow' | 'block';
}

export async function newContext(browser: Browser, baseURL: string, opts: ContextOptions = {}): Promise<BrowserContext> {
  const vp = VIEWPORTS[opts.viewport ?? 'desktop'];
  return browser.newContext({
    baseURL,
    viewport: vp,
    locale: opts.locale ?? 'en-US',
    isMobile: opts.viewport === 'phone',
    hasTouch: opts.viewport === 'phone',
    serviceWorkers: opts.serviceWorkers ?? 'block',
  });
}

const NETWORK = (offline: boolean) => ({ offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

interface OfflineState {
  sessions: Map<Page, CDPSession>;
  watch: (page: Page) => void;
  onLoad: (page: Page) => void;
}
const offlineContexts = new WeakMap<BrowserContext, OfflineState>();

/**
 * Takes the context's network away (or gives it back), as `ctx.setOffline` does, and keeps `navigator.onLine`
 * truthful. Debian's Chromium 150 (bookworm, 2026-11) starts a document that loads while the context is offline (a
 * reload or a new tab, served by the service worker) with `navigator.onLine` true, though its requests fail; a real
 * browser without a network says false. So while offline, each page that finishes loading is told once more through
 * its own DevTools session (the 'offline' event the page then gets is what it would have seen at start); going
 * online clears those sessions first.
 */
export async function setOffline(ctx: BrowserContext, offline: boolean): Promise<void> {
  const state = offlineContexts.get(ctx);
  if (!offline) {
    if (state) {
      offlineContexts.delete(ctx);
      ctx.off('page', state.watch);
      for (const page of ctx.pages()) page.off('domcontentloaded', state.onLoad);
      await Promise.all([...state.sessions.values()].map((s) => s.send('Network.emulateNetworkConditions', NETWORK(false)).then(() => s.detach(), () => undefined)));
    }
    await ctx.setOffline(false);
    return;
  }
  await ctx.setOffline(true);
  if (state) return;
  const sessions = new Map<Page, CDPSession>();
  const onLoad = (page: Page) => {
    void (async () => {
      let session = sessions.get(page);
      if (!session) {
        session = await ctx.newCDPSession(page);
        sessions.set(page, session);
      }
      if (offlineContexts.get(ctx) === next) await session.send('Network.emulateNetworkConditions', NETWORK(true));
    })().catch(() => undefined); // the page closed meanwhile
  };
  const watch = (page: Page) => page.on('domcontentloaded', onLoad);
  const next: OfflineState = { sessions, watch, onLoad };
  offlineContexts.set(ctx, next);
  ctx.on('page', watch);
  for (const page of ctx.pages()) watch(page);
}

/** Collects uncaught page errors (a spec asserts there are none). */
export function trackPageErrors(page: Page): Error[] {
  const errors: Error[] = [];
  page.on('pageerror', (e) => errors.push(e));
  return errors;
}

export interface SuitePage {
  context: BrowserContext;
  page: Page;
  /** The page's uncaught errors (a test ends with `expect(errors).toEqual([])`). */
  errors: Error[];
}

/**
 * The page the tests of a describe block share: before them, a new context (`opts`: viewport, locale) and its page,
 * errors tracked, opened by `open` (log in, choose the farm, go to the page); after them the context is closed.
 * Call it in the describe block; read `page` and `errors` inside the tests (they are set before the first one).
 */
export function suitePage(browser: () => Browser, baseURL: () => string, open: (page: Page) => Promise<void>, opts: ContextOptions = {}): SuitePage {
  const s = {} as SuitePage;
  beforeAll(async () => {
    s.context = await newContext(browser(), baseURL(), opts);
    s.page = await s.context.newPage();
    s.errors = trackPageErrors(s.page);
    await open(s.page);
  }, 120_000);
  afterAll(async () => s.context?.close());
  return s;
}

/**
 * Waits for `testId`; when it does not come, the error also says what the page showed (its address, the test
 * ids on screen, the text of any alert, whether a service worker controls it), so a failure that happens only on
 * CI can be understood from its log.
 */
export async function waitForTestId(page: Page, testId: string, timeout = 30_000): Promise<void> {
  try {
    await page.getByTestId(testId).waitFor({ timeout });
  } catch (err) {
    const state = await page
      .evaluate(() => ({
        url: location.href,
        testIds: [...new Set([...document.querySelectorAll('[data-testid]')].map((e) => e.getAttribute('data-testid')))].join(', '),
        alerts: [...document.querySelectorAll('[role=alert]')].map((e) => (e as HTMLElement).innerText).join(' | '),
        controlled: Boolean(navigator.serviceWorker?.controller),
      }))
      .catch((e: unknown) => ({ unavailable: String(e) }));
    throw new Error(`${(err as Error).message}\npage state: ${JSON.stringify(state)}`, { cause: err });
  }
}

export const ADMIN = { user: 'admin', password: 'admin-pass-1' } as const;

interface Envelope<T> {
  code: number | string;
  msg: string;
  data: T;
}

/** A tiny cookie-keeping API client for preparing data (not the app's client). */
export class ApiSession {
  private cookie = '';
  constructor(readonly baseURL: string) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: Record<string, string | number | boolean>, json = false): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', I18N: 'en-US' };
    if (this.cookie) headers.Cookie = this.cookie;
    let payload: string | undefined;
    let url = `${this.baseURL}${path}`;
    if (method === 'POST') {
      headers['X-Requested-With'] = 'XMLHttpRequest';
      if (json) {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(body ?? {});
      } else {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        payload = new URLSearchParams(Object.entries(body ?? {}).map(([k, v]) => [k, String(v)])).toString();
      }
    } else if (body) {
      url += `?${new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString()}`;
    }
    const res = await fetch(url, { method, headers, body: payload });
    const set = res.headers.getSetCookie?.() ?? [];
    const session = set.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('hf_session='));
    if (session) this.cookie = session;
    const env = (await res.json()) as Envelope<T>;
    if (env.code !== 0 && env.code !== '0') throw new Error(`${method} ${path} → ${res.status} ${String(env.code)} ${env.msg}`);
    return env.data;
  }

  get<T>(path: string, params?: Record<string, string | number | boolean>) {
    return this.call<T>('GET', path, params);
  }
  post<T>(path: string, body?: Record<string, string | number | boolean>, json = false) {
    return this.call<T>('POST', path, body, json);
  }
}

/** Creates the first administrator through the set-up call and returns a logged-in API session. */
export async function setupAdmin(baseURL: string, user: string = ADMIN.user, password: string = ADMIN.password): Promise<ApiSession> {
  const api = new ApiSession(baseURL);
  await api.post('/api/userv3/setup', { user, password });
  return api;
}

/**
 * A farm (POST /api/agent/createv2) with `count` miners its agent read at `takenAt` (one uploaded cycle, batch 1);
 * answers the farm's agent secret.
 */
export async function createFarmWithMiners(api: ApiSession, farm: { agentKey: string; agentName: string }, count: number, takenAt: string): Promise<string> {
  const { secret } = await api.post<{ secret: string }>('/api/agent/createv2', { ...farm, noticeEmails: '', agentAddr: '', selfManaged: false });
  await uploadBatch(api.baseURL, farm.agentKey, secret, snapshotBatch({ batchSeq: 1, count, takenAt }));
  return secret;
}

export async function loginApi(baseURL: string, user: string, password: string): Promise<ApiSession> {
  const api = new ApiSession(baseURL);
  await api.post('/api/userv3/login', { user, password });
  return api;
}

/** Logs the browser context in through the login page. */
export async function loginUi(page: Page, user: string = ADMIN.user, password: string = ADMIN.password): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name="user"]').fill(user);
  await page.locator('input[name="password"]').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('app-shell').waitFor({ timeout: 20_000 });
  if ((page.viewportSize()?.width ?? 1280) < 768) await settlePhoneLanding(page);
}

/**
 * On a phone the console's first page may hand over to the light field app (/field, a full page load): wait
 * until the page is the field app, or a console page whose address has not changed for a second, so the next
 * step of a test does not race that reload.
 */
export async function settlePhoneLanding(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __hfLanding?: { path: string; since: number } };
      const path = location.pathname;
      if (path.startsWith('/field')) return document.querySelector('.hf-app') !== null;
      if (!document.querySelector('[data-testid="app-shell"]')) return false;
      const now = Date.now();
      if (!w.__hfLanding || w.__hfLanding.path !== path) w.__hfLanding = { path, since: now };
      return now - w.__hfLanding.since >= 1000;
    },
    undefined,
    { timeout: 20_000, polling: 100 },
  );
}

/** Makes `agentKey` the selected farm of the console in this page (as the farm picker does) for the next navigation. */
export async function selectFarm(page: Page, agentKey: string): Promise<void> {
  await page.evaluate((k) => {
    sessionStorage.setItem('hf.agentKey', k);
    localStorage.setItem('hf.lastAgentKey', k);
  }, agentKey);
}

/** The rows of the page's data table, and their keys (data-row-key) in order. */
export const tableRows = (page: Page) => page.getByTestId('data-table-row');
export const tableRowKeys = (page: Page) => tableRows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key') ?? ''));
