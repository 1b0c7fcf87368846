/**
 * Enumerates every API route: each declares a permission; a member of farm A gets 403 with farm B's
 * agentKey on every farm-scoped route; malformed input gets a localised message and writes nothing.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_KEYS } from '@shared/menu-catalogue';
import { registerPermissions } from '@server/plugins/permissions';
import { Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

const TABLES = ['users', 'roles', 'farms', 'user_farms', 'notifications', 'page_views', 'sessions'] as const;

async function counts(t: TestApp): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const rows = await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    out[table] = Number(rows.n);
  }
  return out;
}

describe('route guards', () => {
  let t: TestApp;
  let admin: Client;
  let member: Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    await createFarm(admin, 'farm-a');
    await createFarm(admin, 'farm-b');
    member = (await createMember(admin, 'member-a', [...ALL_PERMISSION_KEYS], ['farm-a'])).client;
  });
  afterAll(async () => t.close());

  it('every API route declares a permission, and registering one without it fails', async () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(25);
    for (const r of t.app.apiRoutes) expect(r.permission, `${r.method} ${r.url}`).toBeDefined();
    const bare = Fastify();
    registerPermissions(bare);
    expect(() => bare.get('/api/undeclared', async () => 'x')).toThrow(/declares no permission/);
  });

  it("a member of farm A gets 403 with farm B's agentKey on every farm-scoped route", async () => {
    const scoped = t.app.apiRoutes.filter((r) => r.farmScoped);
    expect(scoped.length).toBeGreaterThanOrEqual(10);
    for (const r of scoped) {
      const res =
        r.method === 'GET'
          ? await member.get(r.url, { agentKey: 'farm-b' })
          : await member.post(r.url, { agentKey: 'farm-b', agentName: 'Hijack', region: 'eu', read: 1 });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      // The same call on the member's own farm is not refused for membership.
      const own = r.method === 'GET' ? await member.get(r.url, { agentKey: 'farm-a' }) : null;
      // Routes that need more than agentKey (a miner's ip) refuse the bare call as bad input, never for membership.
      if (own && own.statusCode !== 200) {
        expect(own.statusCode, `${r.method} ${r.url} own farm`).toBe(400);
        expect(Object.keys(body<{ fields?: Record<string, string> }>(own).data.fields ?? {}), `${r.method} ${r.url} own farm`).not.toContain('agentKey');
      }
    }
    const farmB = await t.db.selectFrom('farms').selectAll().where('agent_key', '=', 'farm-b').executeTakeFirstOrThrow();
    expect(farmB.agent_name).toBe('Farm farm-b');
  });

  it("a member of farm A cannot reach farm B by naming A in the address and B in the form", async () => {
    const writes = t.app.apiRoutes.filter((r) => r.farmScoped && r.method === 'POST');
    expect(writes.length).toBeGreaterThanOrEqual(10);
    const before = await t.db.selectFrom('farms').selectAll().where('agent_key', '=', 'farm-b').executeTakeFirstOrThrow();
    for (const r of writes) {
      const res = await member.post(`${r.url}?agentKey=farm-a`, { agentKey: 'farm-b', agentName: 'Hijack', region: 'eu', read: 1 });
      expect(res.statusCode, `${r.url} → ${res.body}`).toBe(400);
      expect(body<{ fields?: Record<string, string> }>(res).data.fields, r.url).toHaveProperty('agentKey');
    }
    // The console's agentKey header names its current farm: a page acting on another farm names that one in the form.
    const renamed = await admin.post('/api/agent/updatev2', { agentKey: 'farm-b', agentName: 'Farm farm-b', region: before.region ?? '' }, { agentKey: 'farm-a' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await t.db.selectFrom('farms').selectAll().where('agent_key', '=', 'farm-b').executeTakeFirstOrThrow()).toMatchObject({ agent_name: before.agent_name, secret_hash: before.secret_hash });
    expect((await member.post('/api/agent/updatev2', { agentKey: 'farm-b', agentName: 'Hijack' }, { agentKey: 'farm-a' })).statusCode).toBe(403);
  });

  it('malformed input on every write gets a localised message and changes nothing', async () => {
    const writes = t.app.apiRoutes.filter((r) => r.method === 'POST' && r.hasBody && r.permission !== 'agent'); // agent routes: tests/server/agent-uplink.test.ts
    expect(writes.length).toBeGreaterThanOrEqual(15);
    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = admin.cookie;
    const garbage = { id: 'not-a-uuid', user: '!', password: 'x', email: 'nope', mobile: '12', agentKey: ' ', agentName: '', region: 'mars', name: '', permissions: 'a,b', path: '', roleId: 'x', newPassword: '1', oldPassword: '', pollIntervalSec: 'often', scanIpList: '1.2.3-x' };
    // Routes whose only field is agentKey have no malformed form beyond a missing or unknown key.
    const onlyAgentKey = new Set(['/api/agent/deletev2', '/api/agent/rotateSecret']);
    for (const r of writes) {
      const payloads: Record<string, unknown>[] = [{}, garbage];
      if (r.farmScoped && !onlyAgentKey.has(r.url)) payloads.push({ ...garbage, agentKey: 'farm-a' });
      for (const payload of payloads) {
        const before = await counts(t);
        const res = await zh.post(r.url, payload);
        expect(res.statusCode, `${r.url} ${JSON.stringify(payload)} → ${res.body}`).toBe(400);
        const b = body(res);
        expect(b.code).not.toBe(0);
        expect(b.msg, r.url).toMatch(/[\u4e00-\u9fff]/); // the message is in Chinese, as asked
        expect(await counts(t), r.url).toEqual(before);
      }
    }
  });

  it('malformed query parameters are refused with 400', async () => {
    const reads = t.app.apiRoutes.filter((r) => r.method === 'GET' && r.hasQuery && !r.farmScoped);
    for (const r of reads) {
      const res = await admin.get(r.url, { page: '-1', pageSize: 'lots', agentKey: '' });
      expect(res.statusCode, r.url).toBe(400);
    }
  });

  it('a restricted role gets 403 on the pages it cannot see', async () => {
    const viewer = (await createMember(admin, 'viewer-a', [1000, 60000], ['farm-a'])).client;
    expect((await viewer.get('/api/agent/pagelist')).statusCode).toBe(200);
    expect((await viewer.get('/api/role/list')).statusCode).toBe(403);
    expect((await viewer.get('/api/user/list')).statusCode).toBe(403);
    expect((await viewer.post('/api/agent/createv2', { agentName: 'x', agentKey: 'viewer-farm' })).statusCode).toBe(403);
    const menus = body<{ menus: { routes: { key: string }[] }[] }>(await viewer.get('/api/role/userAgentMenus', { agentKey: 'farm-a' })).data.menus;
    expect(menus.flatMap((s) => s.routes.map((r) => r.key)).sort()).toEqual(['agentList', 'dashboard']);
  });
});
