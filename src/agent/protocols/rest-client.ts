import type { MinerCredential } from '@shared/schemas/agent-uplink';
import { HttpError, httpRequest, jsonBody } from './http-client';

/**
 * Token-based JSON REST client used for Braiins OS (`POST /api/v1/auth/login`, raw token in
 * `Authorization`) and VNish (`POST /api/v1/unlock {pw}`, `Authorization: Bearer <token>`).
 * Logs in lazily, tries each configured credential, re-logs in once on 401.
 */
export interface RestFlavor {
  loginPath: string;
  loginBody: (c: MinerCredential) => unknown;
  authHeader: (token: string) => string;
}

export const BRAIINS_REST: RestFlavor = {
  loginPath: '/api/v1/auth/login',
  loginBody: (c) => ({ username: c.user || 'root', password: c.password }),
  authHeader: (t) => t,
};

export const VNISH_REST: RestFlavor = {
  loginPath: '/api/v1/unlock',
  loginBody: (c) => ({ pw: c.password }),
  authHeader: (t) => `Bearer ${t}`,
};

export class RestClient {
  private token: string | null = null;

  constructor(
    readonly host: string,
    readonly port: number,
    private readonly flavor: RestFlavor,
    private credentials: MinerCredential[],
    private readonly timeoutMs = 8000,
  ) {}

  setCredentials(c: MinerCredential[]): void {
    this.credentials = c;
    this.token = null;
  }

  async login(): Promise<string> {
    for (const c of this.credentials) {
      const res = await httpRequest(this.host, this.port, this.flavor.loginPath, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(this.flavor.loginBody(c)),
        timeoutMs: this.timeoutMs,
      });
      if (res.status === 404) throw new HttpError('http-status', `${this.flavor.loginPath}: HTTP 404 (no REST API)`, 404);
      if (res.status >= 200 && res.status < 300) {
        const tok = jsonBody<Record<string, unknown>>(res)['token'];
        if (typeof tok === 'string' && tok) {
          this.token = tok;
          this.credentials = [c, ...this.credentials.filter((x) => x !== c)];
          return tok;
        }
      }
    }
    throw new HttpError('auth-failed', `auth-failed: none of ${this.credentials.length} configured credential(s) accepted`, 401);
  }

  /** JSON request with the token; `auth:false` skips login (public endpoints). */
  async call<T = unknown>(method: string, path: string, body?: unknown, o: { auth?: boolean; timeoutMs?: number } = {}): Promise<T> {
    const auth = o.auth ?? true;
    for (let attempt = 0; attempt < 2; attempt++) {
      const headers: Record<string, string> = {};
      if (auth) headers['Authorization'] = this.flavor.authHeader(this.token ?? (await this.login()));
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await httpRequest(this.host, this.port, path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: o.timeoutMs ?? this.timeoutMs,
      });
      if (res.status === 401 && auth && attempt === 0) {
        this.token = null;
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw new HttpError(res.status === 401 ? 'auth-failed' : 'http-status', `${method} ${path}: HTTP ${res.status}`, res.status);
      if (res.body.trim() === '') return undefined as T;
      return jsonBody<T>(res);
    }
    throw new HttpError('auth-failed', `${method} ${path}: unauthorised`, 401);
  }
}
