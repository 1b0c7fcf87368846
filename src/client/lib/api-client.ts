/**
 * The console's one HTTP client (spec 1 §7, api-conventions.md): credentials included, 30 s time-out,
 * form-encoded by default (json or multipart when asked), headers I18N and agentKey, X-Requested-With on
 * writes (CSRF). Answers are envelopes; code "401" sends the browser to `data`; a positive code rejects
 * with an ApiError (for non-GET calls the caller shows `msg`, spec 1 §8).
 * Every outcome is reported to lib/offline/connectivity.ts: an answer of our server (an envelope, any status)
 * or none (fetch rejected other than by the caller's own signal, no envelope, the service worker's cached copy).
 */
import type { Envelope } from '@shared/errors';
import { isServerAnswer, reportNetworkFailure, reportServerAnswer } from './offline/connectivity';

export const REQUEST_TIMEOUT_MS = 30_000;

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number | string,
    readonly status: number,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** Per-field messages of a form error (`data.fields`). */
  get fields(): Record<string, string> {
    const d = this.data as { fields?: Record<string, string> } | null;
    return d?.fields ?? {};
  }
}

interface ClientContext {
  locale: () => string;
  agentKey: () => string | null;
  /** Called on code "401"; default sends the browser to the address. */
  onUnauthorized: (redirectTo: string) => void;
}

const context: ClientContext = {
  locale: () => 'zh-CN',
  agentKey: () => null,
  onUnauthorized: (to) => {
    if (window.location.pathname !== to) window.location.assign(to);
  },
};

export function configureApiClient(partial: Partial<ClientContext>): void {
  Object.assign(context, partial);
}

export type BodyKind = 'form' | 'json' | 'multipart';
type Params = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export interface RequestOptions {
  params?: Params;
  body?: Params | FormData;
  as?: BodyKind;
  signal?: AbortSignal;
  idempotencyKey?: string;
  /** Do not run the 401 redirect (login and setup screens). */
  quiet401?: boolean;
}

function toSearch(params: Params | undefined): string {
  if (!params) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    sp.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

export async function request<T>(method: 'GET' | 'POST', path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { I18N: context.locale(), Accept: 'application/json' };
  const agentKey = context.agentKey();
  if (agentKey) headers.agentKey = agentKey;
  let body: BodyInit | undefined;
  if (method !== 'GET') {
    headers['X-Requested-With'] = 'XMLHttpRequest';
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
    const kind = opts.as ?? 'form';
    if (opts.body instanceof FormData) body = opts.body;
    else if (kind === 'json') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body ?? {});
    } else if (kind === 'multipart') {
      const fd = new FormData();
      for (const [k, v] of Object.entries(opts.body ?? {})) if (v !== undefined && v !== null) fd.set(k, Array.isArray(v) ? v.join(',') : String(v));
      body = fd;
    } else {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = toSearch(opts.body as Params | undefined).slice(1);
    }
  }
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const startedAt = Date.now();
  // The caller's own cancel (a query no longer needed) says nothing about the server.
  const noAnswer = () => {
    if (!opts.signal?.aborted) reportNetworkFailure(startedAt);
  };
  let res: Response;
  try {
    res = await fetch(path + (method === 'GET' ? toSearch(opts.params) : toSearch(opts.params)), {
      method,
      headers,
      body,
      credentials: 'include',
      signal,
    });
  } catch (err) {
    noAnswer();
    throw err;
  }
  let env: Envelope<T>;
  try {
    env = (await res.json()) as Envelope<T>;
  } catch {
    noAnswer();
    throw new ApiError(res.statusText || 'Network error', res.status, res.status, null);
  }
  if (isServerAnswer(res, env)) reportServerAnswer();
  else noAnswer();
  if (String(env.code) === '401') {
    if (!opts.quiet401) context.onUnauthorized(typeof env.data === 'string' ? env.data : '/login');
    throw new ApiError(env.msg, '401', 401, env.data);
  }
  if (env.code !== 0 && env.code !== '0') throw new ApiError(env.msg, env.code, res.status, env.data);
  return env.data;
}

export const api = {
  get: <T>(path: string, params?: Params, opts: Omit<RequestOptions, 'params'> = {}) => request<T>('GET', path, { ...opts, params }),
  post: <T>(path: string, body?: Params | FormData, opts: Omit<RequestOptions, 'body'> = {}) => request<T>('POST', path, { ...opts, body }),
};

/** POSTs a farm's file as multipart (fields agentKey, fileName, file): the IP-list, pool-config and shelf-list uploads. */
export function postFarmFile<T>(path: string, agentKey: string, file: File): Promise<T> {
  const fd = new FormData();
  fd.set('agentKey', agentKey);
  fd.set('fileName', file.name);
  fd.set('file', file, file.name);
  return api.post<T>(path, fd);
}
