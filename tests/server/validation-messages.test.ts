/**
 * Checks for which a schema gives no message of its own are answered with the limit that was broken and the field's name
 * (the toast), in the caller's language — not a bare "invalid value".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type TestApp, body, createFarm, createTestApp, setupAdmin } from './harness';

describe('validation messages name the limit and the field', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    await createFarm(admin, 'msg-farm');
  });
  afterAll(async () => t.close());

  const refused = (res: Parameters<typeof body>[0]) => {
    expect(res.statusCode, res.body).toBe(400);
    return body<{ fields: Record<string, string> }>(res);
  };

  it('a page size over the limit', async () => {
    const en = refused(await admin.get('/api/miner/list', { agentKey: 'msg-farm', pageSize: '5000' }));
    expect(en.msg).toBe('pageSize: At most 1000');
    expect(en.data.fields.pageSize).toBe('At most 1000');
    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = admin.cookie;
    expect(refused(await zh.get('/api/miner/list', { agentKey: 'msg-farm', pageSize: '5000' })).msg).toBe('pageSize: 不能大于 1000');
  });

  it('a password longer than allowed at login, and a missing one', async () => {
    const long = refused(await admin.post('/api/userv3/login', { user: 'someone', password: 'x'.repeat(300) }));
    expect(long.msg).toMatch(/^password: At most \d+ characters$/);
    expect(refused(await admin.post('/api/userv3/login', { user: 'someone' })).msg).toBe('password: Required');
    // A schema's own message already says what it is about: no prefix.
    const empty = refused(await admin.post('/api/userv3/login', { user: 'someone', password: '' }));
    expect(empty.msg).not.toMatch(/^password:/);
    expect(empty.msg).toBe(empty.data.fields.password);
  });
});
