import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfig } from '@shared/schemas/agent-uplink';
import type { MinerLoginRow } from '@shared/schemas/miner-logins';
import { Client, type TestApp, agentCall, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

type Fields = { fields: Record<string, string> };

describe('miner logins of a farm', () => {
  let t: TestApp;
  let admin: Client;
  let farmA = { agentKey: 'logins-a', secret: '' };
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farmA = await createFarm(admin, 'logins-a');
    await createFarm(admin, 'logins-b');
  });
  afterAll(async () => t.close());

  const list = async (agentKey = 'logins-a', c: Client = admin) => body<MinerLoginRow[]>(await c.get('/api/agent/minerLogins', { agentKey })).data;
  const save = (payload: Record<string, unknown>, c: Client = admin) => c.post('/api/agent/minerLogins/save', { agentKey: 'logins-a', ...payload });
  const agentConfig = async () => body<AgentConfig>(await agentCall(t.app, farmA, 'GET', '/config')).data;
  const stored = () => t.db.selectFrom('farm_miner_logins').selectAll().where('agent_key', '=', 'logins-a').execute();

  it('adds logins per firmware; the console never gets a password back, the database keeps it encrypted, the agent gets it in clear', async () => {
    const a = await save({ family: 'antminer', user: 'root', password: 'Farm-Pass#1' });
    expect(a.statusCode).toBe(200);
    expect(a.body).not.toContain('Farm-Pass#1');
    await save({ family: 'whatsminer', user: '', password: 'wm-admin-2' });
    await save({ family: 'antminer', user: '', password: 'second-try' });
    const rows = await list();
    expect(rows.map((r) => [r.family, r.user])).toEqual([
      ['antminer', 'root'],
      ['antminer', ''],
      ['whatsminer', ''],
    ]);
    expect(Object.keys(rows[0]!).sort()).toEqual(['family', 'id', 'updatedAt', 'user']);
    for (const r of await stored()) {
      expect(r.password_enc).toMatch(/^v1:/);
      expect(r.password_enc).not.toContain('Farm-Pass#1');
      expect(r.password_enc).not.toContain('second-try');
    }
    const config = await agentConfig();
    // In the order added; an Antminer login without a user logs in as root.
    expect(config.credentials.antminer).toEqual([
      { user: 'root', password: 'Farm-Pass#1' },
      { user: 'root', password: 'second-try' },
    ]);
    expect(config.credentials.whatsminer).toEqual([{ user: '', password: 'wm-admin-2' }]);
    expect(config.credentials.braiins).toEqual([]);
  });

  it('adding the same login again changes nothing; editing keeps the password unless a new one is given; delete removes it', async () => {
    const before = (await stored()).length;
    const again = await save({ family: 'antminer', user: 'root', password: 'Farm-Pass#1' });
    expect(again.statusCode).toBe(200);
    expect((await stored()).length).toBe(before);
    const id = body<MinerLoginRow>(again).data.id;
    expect((await save({ id, family: 'antminer', user: 'admin', password: '' })).statusCode).toBe(200);
    expect((await agentConfig()).credentials.antminer[0]).toEqual({ user: 'admin', password: 'Farm-Pass#1' });
    expect((await save({ id, family: 'antminer', user: 'admin', password: 'Changed-3' })).statusCode).toBe(200);
    expect((await agentConfig()).credentials.antminer[0]).toEqual({ user: 'admin', password: 'Changed-3' });
    expect((await admin.post('/api/agent/minerLogins/delete', { agentKey: 'logins-a', id })).statusCode).toBe(200);
    expect((await agentConfig()).credentials.antminer).toEqual([{ user: 'root', password: 'second-try' }]);
    // Deleting it again changes nothing (a repeated request).
    expect((await admin.post('/api/agent/minerLogins/delete', { agentKey: 'logins-a', id })).statusCode).toBe(200);
  });

  it('refuses bad input with the localised message and stores nothing', async () => {
    const before = await stored();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ family: 'antminer', user: 'root', password: '' }, 'password', 'Enter the password'],
      [{ family: 'cgminer', user: 'root', password: 'x' }, 'family', 'Choose the firmware'],
      [{ family: 'antminer', user: 'r'.repeat(33), password: 'x' }, 'user', 'User: at most 32 characters, no line breaks or tabs'],
      [{ family: 'antminer', user: 'root', password: 'a\nb' }, 'password', 'Password: at most 64 characters, no line breaks or tabs'],
      [{ family: 'antminer', user: 'root', password: 'p'.repeat(65) }, 'password', 'Password: at most 64 characters, no line breaks or tabs'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await save(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body<Fields>(res).data.fields[field], JSON.stringify(payload)).toBe(message);
    }
    // zh-CN is the default language
    const zh = await admin.post('/api/agent/minerLogins/save', { agentKey: 'logins-a', family: 'antminer', user: 'root', password: '' }, { I18N: 'zh-CN' });
    expect(body(zh).msg).toBe('请输入密码');
    const unknownId = await save({ id: '00000000-0000-4000-8000-000000000000', family: 'antminer', user: 'root', password: 'x' });
    expect(unknownId.statusCode).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it('keeps at most 10 logins per firmware', async () => {
    for (let i = 0; i < 10; i++) expect((await save({ family: 'vnish', user: '', password: `vn-${i}` })).statusCode).toBe(200);
    const over = await save({ family: 'vnish', user: '', password: 'vn-10' });
    expect(over.statusCode).toBe(400);
    expect(body<Fields>(over).data.fields.family).toBe('At most 10 logins per firmware');
    expect((await list()).filter((r) => r.family === 'vnish')).toHaveLength(10);
  });

  it('is checked per farm and per permission: settings read 80000, changes 80500; another farm’s login is out of reach', async () => {
    const otherId = body<MinerLoginRow>(await admin.post('/api/agent/minerLogins/save', { agentKey: 'logins-b', family: 'braiins', user: 'root', password: 'b-pass' })).data.id;
    const member = (await createMember(admin, 'logins-op', [80_000, 80_500], ['logins-a'])).client;
    expect((await member.get('/api/agent/minerLogins', { agentKey: 'logins-b' })).statusCode).toBe(403);
    expect((await member.post('/api/agent/minerLogins/save', { agentKey: 'logins-b', family: 'braiins', user: 'x', password: 'y' })).statusCode).toBe(403);
    // farm A's member names farm B's login through farm A: nothing happens to it
    expect((await member.post('/api/agent/minerLogins/delete', { agentKey: 'logins-a', id: otherId })).statusCode).toBe(200);
    expect(await list('logins-b')).toHaveLength(1);
    expect((await save({ id: otherId, family: 'braiins', user: 'x', password: 'y' }, member)).statusCode).toBe(404);
    const viewer = (await createMember(admin, 'logins-view', [80_000], ['logins-a'])).client;
    expect((await viewer.get('/api/agent/minerLogins', { agentKey: 'logins-a' })).statusCode).toBe(200);
    expect((await save({ family: 'braiins', user: 'root', password: 'z' }, viewer)).statusCode).toBe(403);
    const none = (await createMember(admin, 'logins-none', [10_000], ['logins-a'])).client;
    expect((await none.get('/api/agent/minerLogins', { agentKey: 'logins-a' })).statusCode).toBe(403);
  });
});
