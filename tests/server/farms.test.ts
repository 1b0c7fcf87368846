import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

describe('farms', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
  });
  afterAll(async () => t.close());

  it('validates farm fields with the spec messages', async () => {
    const res = await admin.post('/api/agent/createv2', { agentName: '', agentKey: '', noticeEmails: 'a@b.com,broken' });
    const f = body<{ fields: Record<string, string> }>(res).data.fields;
    expect(f.agentName).toBe('Farm name is required');
    expect(f.noticeEmails).toBe('multiple emails separated by commas');
    const long = await admin.post('/api/agent/createv2', { agentName: 'x'.repeat(101), agentKey: 'k-long' });
    expect(body<{ fields: Record<string, string> }>(long).data.fields.agentName).toBe('Farm name must be at most 100 characters');
  });

  it('creates a farm with a secret shown once, keeps agentKey locked, deletes', async () => {
    const { secret } = await createFarm(admin, 'north-1', { noticeEmails: ' a@b.com , c@d.org ' });
    expect(secret.length).toBeGreaterThanOrEqual(24);
    const row = await t.db.selectFrom('farms').selectAll().where('agent_key', '=', 'north-1').executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(secret);
    expect(row.notice_emails).toBe('a@b.com,c@d.org');
    const dup = await admin.post('/api/agent/createv2', { agentName: 'Again', agentKey: 'north-1' });
    expect(dup.statusCode).toBe(409);
    const upd = await admin.post('/api/agent/updatev2', { agentKey: 'north-1', agentName: 'North one', noticeEmails: '' });
    expect(body<{ name: string; agentKey: string }>(upd).data).toMatchObject({ name: 'North one', agentKey: 'north-1' });
    const info = body<{ name: string; lastOnlineAt: null }>(await admin.get('/api/agent/info', { agentKey: 'north-1' })).data;
    expect(info).toMatchObject({ name: 'North one', lastOnlineAt: null });
    expect(body(await admin.get('/api/agent/status', { agentKey: 'north-1' })).data).toEqual({ isOnline: false, lastOnlineAt: null, netDelay: 0 });
    const rotated = body<{ secret: string }>(await admin.post('/api/agent/rotateSecret', { agentKey: 'north-1' })).data.secret;
    expect(rotated).not.toBe(secret);
    expect((await admin.post('/api/agent/deletev2', { agentKey: 'north-1' })).statusCode).toBe(200);
    expect(await t.db.selectFrom('farms').selectAll().where('agent_key', '=', 'north-1').execute()).toHaveLength(0);
  });

  it('deletes a farm that has miners, marks, customers and history (its sync tombstones go with it)', async () => {
    await createFarm(admin, 'full-1');
    await sql`insert into customers (agent_key, name, contract, electric_unit, electric_price) values ('full-1', 'c', 'x', 'USD', 1)`.execute(t.db);
    await sql`insert into miners (agent_key, ip, snapshot, taken_at) values ('full-1', '10.0.0.1', '{}', now()), ('full-1', '10.0.0.2', '{}', now())`.execute(t.db);
    await t.db.insertInto('miner_marks').values({ agent_key: 'full-1', ip: '10.0.0.1', customer: 'c' }).execute();
    await sql`insert into farm_stats_minute (agent_key, at, real_ghs, ideal_ghs, total, online, qualified) values ('full-1', now(), 1, 1, 2, 2, 2)`.execute(t.db);
    // A miner deleted while the farm lives leaves a tombstone for the phones.
    await sql`delete from miners where agent_key = 'full-1' and ip = '10.0.0.2'`.execute(t.db);
    expect(await t.db.selectFrom('sync_tombstones').select('row_key').where('agent_key', '=', 'full-1').execute()).toHaveLength(1);
    const res = await admin.post('/api/agent/deletev2', { agentKey: 'full-1' });
    expect(body(res).code).toBe(0);
    for (const table of ['miners', 'miner_marks', 'customers', 'sync_tombstones', 'farm_stats_minute'] as const) {
      expect(await t.db.selectFrom(table).select('agent_key').where('agent_key', '=', 'full-1').execute()).toHaveLength(0);
    }
  });

  it('applies the region rules of spec 1 §4', async () => {
    await createFarm(admin, 'me-fixed');
    expect(body(await admin.get('/api/agent/getAgentRegion', { agentKey: 'me-fixed' })).data).toEqual({ region: 'me', read: true, canChange: false });
    expect((await admin.post('/api/agent/updateAgentRegion', { agentKey: 'me-fixed', region: 'eu', read: 1 })).statusCode).toBe(403);
    await createFarm(admin, 'west-2');
    const member = (await createMember(admin, 'region-user', [1000, 60000], ['west-2'])).client;
    const set = await member.request({ method: 'POST', url: '/api/agent/updateAgentRegion', payload: { agentKey: 'west-2', region: 'eu', read: 1 } });
    expect(body(set).data).toEqual({ region: 'eu', read: true, canChange: true });
    // Once a region is set and the agent is online, only the override may change it.
    await t.db.updateTable('farms').set({ last_online_at: new Date() }).where('agent_key', '=', 'west-2').execute();
    expect(body<{ canChange: boolean }>(await member.get('/api/agent/getAgentRegion', { agentKey: 'west-2' })).data.canChange).toBe(false);
    expect((await member.post('/api/agent/updateAgentRegion', { agentKey: 'west-2', region: 'us', read: 1 })).statusCode).toBe(403);
    expect(body<{ canChange: boolean }>(await admin.get('/api/agent/getAgentRegion', { agentKey: 'west-2' })).data.canChange).toBe(true);
  });

  it('lists only the farms a member belongs to', async () => {
    await createFarm(admin, 'east-3');
    const m = (await createMember(admin, 'east-user', [1000, 60000], ['east-3'])).client;
    const opts = body<{ value: string }[]>(await m.get('/api/options/agent')).data;
    expect(opts.map((o) => o.value)).toEqual(['east-3']);
    const page = body<{ total: number }>(await m.get('/api/agent/pagelist')).data;
    expect(page.total).toBe(1);
  });
});
