import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '@server/domains/notifications/notifications.repository';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

describe('notifications', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    await createFarm(admin, 'farm-n');
  });
  afterAll(async () => t.close());

  it('pages by 5, counts unread, reads one and all, per user', async () => {
    const other = (await createMember(admin, 'outsider', [1000], [])).client;
    for (let i = 0; i < 7; i++) await notify(t.db, { type: i === 0 ? 'pool_check' : 'agent_updated', title: `Notice ${i}`, content: `body ${i}` }, { agentKey: 'farm-n' });
    expect(body(await admin.get('/api/notification/unread')).data).toBe(7);
    expect(body(await other.get('/api/notification/unread')).data).toBe(0);
    const p1 = body<{ list: { id: string; title: string }[]; total: number; pageSize: number }>(await admin.get('/api/notification/pagelist', { page: '1' })).data;
    expect(p1.list).toHaveLength(5);
    expect(p1.total).toBe(7);
    expect(p1.list[0]?.title).toBe('Notice 6');
    const last = body<{ title: string }>(await admin.get('/api/notification/unReadLast')).data;
    expect(last.title).toBe('Notice 6');
    const first = p1.list[0];
    expect((await admin.post('/api/notification/read', { id: first!.id })).statusCode).toBe(200);
    expect(body(await admin.get('/api/notification/unread')).data).toBe(6);
    // Another user's notification cannot be read through this account.
    expect((await other.post('/api/notification/read', { id: p1.list[1]!.id })).statusCode).toBe(404);
    await admin.post('/api/notification/readAll');
    expect(body(await admin.get('/api/notification/unread')).data).toBe(0);
    expect(body(await admin.get('/api/notification/unReadLast')).data).toBeNull();
  });

  it('lists notices made in the same millisecond newest first (the PGlite clock counts milliseconds)', async () => {
    await admin.post('/api/notification/readAll');
    for (let i = 0; i < 6; i++) await notify(t.db, { type: 'agent_updated', title: `Tie ${i}`, content: '' }, { agentKey: 'farm-n' });
    await t.db.updateTable('notifications').set({ publish_time: new Date(Date.now() + 3_600_000) }) // one time for all, after the first test's notices.where('title', 'like', 'Tie %').execute();
    const page = body<{ list: { title: string }[] }>(await admin.get('/api/notification/pagelist', { page: '1' })).data;
    expect(page.list.map((n) => n.title)).toEqual(['Tie 5', 'Tie 4', 'Tie 3', 'Tie 2', 'Tie 1']);
    expect(body<{ title: string }>(await admin.get('/api/notification/unReadLast')).data.title).toBe('Tie 5');
  });
});
