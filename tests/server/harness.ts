/**
 * Server test harness: each test file gets its own database, cloned from a template migrated once —
 * a PGlite clone by default, or a PostgreSQL database created from a migrated template database when
 * TEST_DATABASE_URL is set (the real-PostgreSQL suite).
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Kysely } from 'kysely';
import pg from 'pg';
import { AGENT_UPLINK_PREFIX, type SnapshotBatch, agentAuthorization } from '@shared/schemas/agent-uplink';
import type { MinerRow } from '@shared/schemas/miner';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { buildApp } from '@server/app';
import { type ServerConfig, loadConfig } from '@server/config';
import { type OpenedDatabase, migrate, pgliteDatabase, postgresDatabase } from '@server/db/kysely';
import { gzipBatch } from '../support/miner-snapshots';

let template: Promise<PGlite> | null = null;

async function pgliteTemplate(): Promise<PGlite> {
  template ??= (async () => {
    const db = await PGlite.create();
    const opened = pgliteDatabase(db);
    await migrate(opened.db as unknown as Kysely<unknown>);
    return db;
  })();
  return template;
}

async function postgresClone(url: string): Promise<OpenedDatabase> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = `hf_t_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`create database ${name} template hf_template`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  const opened = postgresDatabase(u.toString(), 4);
  return {
    ...opened,
    close: async () => {
      await opened.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await c.end();
    },
  };
}

export async function openTestDatabase(): Promise<OpenedDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return postgresClone(url);
  const clone = (await (await pgliteTemplate()).clone()) as PGlite;
  return pgliteDatabase(clone);
}

export interface TestApp {
  app: FastifyInstance;
  db: OpenedDatabase['db'];
  config: ServerConfig;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<ServerConfig> = {}): Promise<TestApp> {
  const opened = await openTestDatabase();
  // The simulator's observer pages are on loopback.
  const config = loadConfig({ DATA_DIR: '/nonexistent', SERVE_DIST: 'false' }, { logLevel: 'silent', observerAllowPrivate: true, ...overrides });
  const app = await buildApp({ config, db: opened.db, logger: false });
  await app.ready();
  return {
    app,
    db: opened.db,
    config,
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
}

/** A logged-in client: keeps the session cookie, sends X-Requested-With on writes. */
export class Client {
  cookie: string | null = null;
  constructor(
    readonly app: FastifyInstance,
    readonly locale = 'en-US',
  ) {}

  async request(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { I18N: this.locale, ...(opts.headers as Record<string, string> | undefined) };
    if (this.cookie) headers.cookie = this.cookie;
    if (opts.method && opts.method !== 'GET' && !('x-requested-with' in headers)) headers['x-requested-with'] = 'XMLHttpRequest';
    const res = await this.app.inject({ ...opts, headers });
    const set = res.cookies.find((c) => c.name === 'hf_session');
    if (set) this.cookie = set.value ? `hf_session=${set.value}` : null;
    return res;
  }

  get(url: string, query?: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.request({ method: 'GET', url, ...(query ? { query } : {}) });
  }

  post(url: string, payload: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.request({ method: 'POST', url, payload, headers });
  }
}

/** Posts a snapshot batch through the agent uplink as the agent does: gzip JSON, Bearer `<agentKey>.<secret>`. */
export function uploadBatch(app: FastifyInstance, creds: { agentKey: string; secret: string }, batch: SnapshotBatch): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `${AGENT_UPLINK_PREFIX}/snapshots`,
    headers: { authorization: agentAuthorization(creds.agentKey, creds.secret), 'content-type': 'application/json', 'content-encoding': 'gzip' },
    payload: gzipBatch(batch),
  });
}

/** One call of the agent uplink as the farm's agent (JSON body), e.g. agentCall(app, farm, 'GET', '/tasks'). */
export function agentCall(app: FastifyInstance, creds: { agentKey: string; secret: string }, method: 'GET' | 'POST', path: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `${AGENT_UPLINK_PREFIX}${path}`,
    headers: { authorization: agentAuthorization(creds.agentKey, creds.secret) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** Uploads one cycle's readings as batch `batchSeq` (the cycle starting at the first reading's time); throws unless accepted. */
export async function uploadCycle(app: FastifyInstance, creds: { agentKey: string; secret: string }, batchSeq: number, snapshots: MinerSnapshot[]): Promise<void> {
  const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq, cycleStartedAt: snapshots[0]!.takenAt, cycleDurationMs: 8000, snapshots };
  const res = await uploadBatch(app, creds, batch);
  if (res.statusCode !== 200) throw new Error(`upload ${batchSeq} → ${res.statusCode} ${res.body}`);
}

/** One page of GET /api/miner/list for the farm (10 rows unless the query says otherwise); throws unless answered. */
export async function listMiners(client: Client, agentKey: string, query: Record<string, string>): Promise<{ list: MinerRow[]; total: number }> {
  const res = await client.get('/api/miner/list', { agentKey, pageSize: '10', ...query });
  if (res.statusCode !== 200) throw new Error(`list ${JSON.stringify(query)} → ${res.statusCode} ${res.body}`);
  return body<{ list: MinerRow[]; total: number }>(res).data;
}

export function body<T = unknown>(res: LightMyRequestResponse): { code: number | string; msg: string; data: T } {
  return res.json() as { code: number | string; msg: string; data: T };
}

// Builders: create what a test needs, with parents when absent.

export const ADMIN = { user: 'admin', password: 'admin-pass-1' };

export async function setupAdmin(app: FastifyInstance): Promise<Client> {
  const c = new Client(app);
  const res = await c.post('/api/userv3/setup', { user: ADMIN.user, password: ADMIN.password });
  if (res.statusCode !== 200) throw new Error(`setup failed: ${res.body}`);
  return c;
}

export async function createFarm(admin: Client, agentKey: string, extra: Record<string, unknown> = {}): Promise<{ agentKey: string; secret: string }> {
  const res = await admin.post('/api/agent/createv2', { agentName: `Farm ${agentKey}`, agentKey, ...extra });
  if (res.statusCode !== 200) throw new Error(`createFarm failed: ${res.body}`);
  return body<{ agentKey: string; secret: string }>(res).data;
}

/** Creates a customer of the farm through the customers API (batchCustomer and the field app name existing customers); returns its id. */
export async function createCustomer(admin: Client, agentKey: string, name: string): Promise<string> {
  const res = await admin.post('/api/customer/save', { agentKey, name, contract: 'Li Wei', email: 'ops@customer.example', mobile: '', areaCode: '', electricUnit: 'USD', electricPrice: '0.05', hostingResult: JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'S21', minerNum: 10 }]) });
  if (res.statusCode !== 200) throw new Error(`createCustomer failed: ${res.body}`);
  return body<{ id: string }>(res).data.id;
}

/** Creates a role with `permissions` and a user holding it, member of `agentKeys`; returns the user's logged-in client. */
export async function createMember(
  admin: Client,
  name: string,
  permissions: number[],
  agentKeys: string[],
): Promise<{ client: Client; userId: string; roleId: string }> {
  const role = await admin.post('/api/role/save', { name: `role-${name}`, permissions: permissions.join(',') });
  if (role.statusCode !== 200) throw new Error(`role failed: ${role.body}`);
  const roleId = body<{ id: string }>(role).data.id;
  const password = 'member-pass-1';
  const user = await admin.post('/api/user/save', { user: name, password, roleId, agentKeys: agentKeys.join(',') });
  if (user.statusCode !== 200) throw new Error(`user failed: ${user.body}`);
  const client = new Client(admin.app);
  const login = await client.post('/api/userv3/login', { user: name, password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { client, userId: body<{ id: string }>(user).data.id, roleId };
}

/** A multipart/form-data body of text fields and one file (field "file"), as a browser's FormData sends it. */
export function multipart(fields: Record<string, string>, file: { name: string; content: Buffer; type: string }): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----hf${Date.now().toString(16)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.content, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
