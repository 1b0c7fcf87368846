/**
 * Users and roles managed by someone who is not an administrator (keys 65500 / 66500): they cannot make anyone an
 * administrator, grant keys they do not hold, edit or delete an administrator, or take a user's other farms away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '@shared/menu-catalogue';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

describe('access management without administrator rights', () => {
  let t: TestApp;
  let admin: Client;
  let manager: { client: Client; userId: string; roleId: string };
  let adminRoleId: string;
  let adminId: string;
  const MANAGER_KEYS = [PERMISSION.roles, PERMISSION.roleOperations, PERMISSION.users, PERMISSION.userOperations, PERMISSION.miners];

  const user = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const farmsOf = async (id: string) => (await t.db.selectFrom('user_farms').select('agent_key').where('user_id', '=', id).orderBy('agent_key').execute()).map((r) => r.agent_key);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    await createFarm(admin, 'farm-a');
    await createFarm(admin, 'farm-b');
    manager = await createMember(admin, 'manager-a', MANAGER_KEYS, ['farm-a']);
    const me = await t.db.selectFrom('users').select(['id', 'role_id']).where('is_admin', '=', true).executeTakeFirstOrThrow();
    adminRoleId = me.role_id!;
    adminId = me.id;
  });
  afterAll(async () => t.close());

  it('cannot give the administrator role, to anyone or to themselves', async () => {
    const self = await manager.client.post('/api/user/save', { id: manager.userId, user: 'manager-a', roleId: adminRoleId, agentKeys: 'farm-a' });
    expect(self.statusCode).toBe(403);
    const other = await manager.client.post('/api/user/save', { user: 'new-admin', password: 'new-admin-pass-1', roleId: adminRoleId, agentKeys: 'farm-a' });
    expect(other.statusCode).toBe(403);
    expect((await user(manager.userId)).is_admin).toBe(false);
    expect(await t.db.selectFrom('users').select('id').where('user_name', '=', 'new-admin').executeTakeFirst()).toBeUndefined();
    expect((await manager.client.get('/api/agent/info', { agentKey: 'farm-b' })).statusCode).toBe(403);
  });

  it('cannot grant keys they do not hold, through a role or by giving a role', async () => {
    const wide = await manager.client.post('/api/role/save', { name: 'wide', permissions: [...MANAGER_KEYS, PERMISSION.minerOperations].join(',') });
    expect(wide.statusCode).toBe(403);
    expect(body(wide).msg).toMatch(/permissions you hold/);
    const narrow = await manager.client.post('/api/role/save', { name: 'narrow', permissions: String(PERMISSION.miners) });
    expect(narrow.statusCode, narrow.body).toBe(200);
    const narrowId = body<{ id: string }>(narrow).data.id;
    // Widening a role, even their own, is the same grant.
    const widen = await manager.client.post('/api/role/save', { id: manager.roleId, name: 'role-manager-a', permissions: [...MANAGER_KEYS, PERMISSION.minerOperations].join(',') });
    expect(widen.statusCode).toBe(403);
    // A role an administrator made with more keys cannot be given by them either.
    const big = body<{ id: string }>(await admin.post('/api/role/save', { name: 'big', permissions: [...MANAGER_KEYS, PERMISSION.minerOperations].join(',') })).data.id;
    expect((await manager.client.post('/api/user/save', { user: 'big-user', password: 'big-user-pass-1', roleId: big, agentKeys: 'farm-a' })).statusCode).toBe(403);
    const ok = await manager.client.post('/api/user/save', { user: 'narrow-user', password: 'narrow-user-pass-1', roleId: narrowId, agentKeys: 'farm-a' });
    expect(ok.statusCode, ok.body).toBe(200);
    // A user who has such a role keeps it when they edit something else, and cannot be moved to it.
    const bigUser = await createMember(admin, 'big-holder', [...MANAGER_KEYS, PERMISSION.minerOperations], ['farm-a']);
    const kept = await manager.client.post('/api/user/save', { id: bigUser.userId, user: 'big-holder', email: 'big@example.com', roleId: bigUser.roleId, agentKeys: 'farm-a' });
    expect(kept.statusCode, kept.body).toBe(200);
    const narrowed = body<{ id: string }>(ok).data.id;
    expect((await manager.client.post('/api/user/save', { id: narrowed, user: 'narrow-user', roleId: bigUser.roleId, agentKeys: 'farm-a' })).statusCode).toBe(403);
    // The role choices offered to them are the ones they may give.
    const offered = body<{ text: string; value: string }[]>(await manager.client.get('/api/options/role')).data.map((o) => o.value);
    expect(offered).toContain(narrowId);
    expect(offered).toContain(manager.roleId);
    expect(offered).not.toContain(adminRoleId);
    expect(offered).not.toContain(big);
    expect(body<{ value: string }[]>(await admin.get('/api/options/role')).data.map((o) => o.value)).toEqual(expect.arrayContaining([adminRoleId, big, narrowId]));
  });

  it('cannot edit (reset the password of) or delete an administrator', async () => {
    const before = await user(adminId);
    const reset = await manager.client.post('/api/user/save', { id: adminId, user: before.user_name, password: 'taken-over-1', roleId: adminRoleId, agentKeys: '' });
    expect(reset.statusCode).toBe(403);
    expect((await manager.client.post('/api/user/delete', { id: adminId })).statusCode).toBe(403);
    expect((await user(adminId)).password_hash).toBe(before.password_hash);
  });

  it("keeps a user's farms the manager is not a member of, and does not delete such a user", async () => {
    const both = await createMember(admin, 'on-both', [PERMISSION.miners], ['farm-a', 'farm-b']);
    const saved = await manager.client.post('/api/user/save', { id: both.userId, user: 'on-both', roleId: both.roleId, agentKeys: '' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await farmsOf(both.userId)).toEqual(['farm-b']);
    expect((await manager.client.post('/api/user/delete', { id: both.userId })).statusCode).toBe(403);
    // An administrator sets every farm.
    expect((await admin.post('/api/user/save', { id: both.userId, user: 'on-both', roleId: both.roleId, agentKeys: 'farm-a' })).statusCode).toBe(200);
    expect(await farmsOf(both.userId)).toEqual(['farm-a']);
    expect((await manager.client.post('/api/user/delete', { id: both.userId })).statusCode).toBe(200);
  });
});
