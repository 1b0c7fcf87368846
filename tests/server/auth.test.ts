import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PERMISSION } from '@shared/menu-catalogue';
import { AUTH_CACHE_TTL_MS } from '../../src/server/domains/auth/auth-cache';
import { ADMIN, Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

describe('accounts and sessions', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ loginRateLimit: { max: 3, windowSec: 60 } });
  });
  afterEach(async () => t.close());

  it('offers setup only while no user exists, and never ships a default password', async () => {
    const anon = new Client(t.app);
    expect(body<{ setupNeeded: boolean }>(await anon.get('/api/config/public')).data.setupNeeded).toBe(true);
    const login = await anon.post('/api/userv3/login', { user: 'admin', password: 'admin' });
    expect(body(login).code).not.toBe(0);
    await setupAdmin(t.app);
    expect(body<{ setupNeeded: boolean }>(await anon.get('/api/config/public')).data.setupNeeded).toBe(false);
    const again = await anon.post('/api/userv3/setup', { user: 'other', password: 'another-pass' });
    expect(again.statusCode).toBe(409);
    const users = await t.db.selectFrom('users').select('user_name').execute();
    expect(users.map((u) => u.user_name)).toEqual([ADMIN.user]);
  });

  it('stores a scrypt hash, never the password', async () => {
    await setupAdmin(t.app);
    const row = await t.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash.startsWith('scrypt$')).toBe(true);
    expect(row.password_hash).not.toContain(ADMIN.password);
  });

  it('logs in, answers the current user, logs out to the login address', async () => {
    await setupAdmin(t.app);
    const c = new Client(t.app);
    expect((await c.get('/api/userv2/userCurrent')).json()).toMatchObject({ code: '401', data: '/login' });
    const wrong = await c.post('/api/userv3/login', { user: ADMIN.user, password: 'wrong-password' });
    expect(wrong.statusCode).toBe(400);
    expect(body(wrong).msg).toBe('Wrong user name or password');
    const ok = await c.post('/api/userv3/login', { user: 'ADMIN', password: ADMIN.password });
    expect(ok.statusCode).toBe(200);
    const cookie = ok.cookies.find((x) => x.name === 'hf_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(body<{ user: string }>(await c.get('/api/userv2/userCurrent')).data.user).toBe(ADMIN.user);
    const out = await c.get('/api/userv3/logout');
    expect(body(out).data).toBe('/login');
    c.cookie = `hf_session=${cookie?.value}`;
    expect((await c.get('/api/userv2/info')).statusCode).toBe(401);
  });

  it('rate-limits failed logins per user', async () => {
    await setupAdmin(t.app);
    const c = new Client(t.app);
    for (let i = 0; i < 3; i++) expect((await c.post('/api/userv3/login', { user: ADMIN.user, password: `bad-${i}-xxxx` })).statusCode).toBe(400);
    const blocked = await c.post('/api/userv3/login', { user: ADMIN.user, password: ADMIN.password });
    expect(blocked.statusCode).toBe(429);
    expect(body(blocked).msg).toMatch(/Too many attempts; try again in \d+ seconds/);
  });

  it('counts guesses sent in parallel: no more reach the password check than the limit allows', async () => {
    const admin = await setupAdmin(t.app);
    const c = new Client(t.app);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => c.post('/api/userv3/login', { user: ADMIN.user, password: `bad-${i}-xxxx` })));
    const codes = answers.map((a) => a.statusCode);
    const checked = codes.filter((s) => s === 400).length;
    expect(checked).toBeLessThanOrEqual(3); // none at all when every attempt counted all twelve
    expect(codes.filter((s) => s === 429).length).toBe(12 - checked);
    // A refusal may be early (it counted attempts refused meanwhile): what is left of the limit can still be tried.
    for (let i = checked; i < 3; i++) expect((await c.post('/api/userv3/login', { user: ADMIN.user, password: `late-${i}-xxxx` })).statusCode).toBe(400);
    expect((await c.post('/api/userv3/login', { user: ADMIN.user, password: ADMIN.password })).statusCode).toBe(429);
    // A user waiting out their limit does not use up the address's attempts, and a good login gives its attempt
    // back: others behind the same address still log in.
    for (let i = 0; i < 10; i++) expect((await c.post('/api/userv3/login', { user: ADMIN.user, password: ADMIN.password })).statusCode).toBe(429);
    await createMember(admin, 'shift-a', [PERMISSION.dashboard], []);
    for (let i = 0; i < 16; i++) {
      const other = new Client(t.app);
      expect((await other.post('/api/userv3/login', { user: 'shift-a', password: 'member-pass-1' })).statusCode, `login ${i}`).toBe(200);
    }
  });

  it('expires sessions', async () => {
    const short = await createTestApp({ sessionTtlHours: 1 / 3600 });
    try {
      const c = await setupAdmin(short.app);
      expect((await c.get('/api/userv2/info')).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 1300));
      expect((await c.get('/api/userv2/info')).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('changes the password and ends the other sessions', async () => {
    const a = await setupAdmin(t.app);
    const b = new Client(t.app);
    await b.post('/api/userv3/login', ADMIN);
    const bad = await a.post('/api/userv2/changePassword', { oldPassword: 'nope-nope', newPassword: 'brand-new-pass' });
    expect(body<{ fields: Record<string, string> }>(bad).data.fields.oldPassword).toBe('The current password is wrong');
    expect((await a.post('/api/userv2/changePassword', { oldPassword: ADMIN.password, newPassword: 'brand-new-pass' })).statusCode).toBe(200);
    expect((await a.get('/api/userv2/info')).statusCode).toBe(200);
    expect((await b.get('/api/userv2/info')).statusCode).toBe(401);
    const c = new Client(t.app);
    expect((await c.post('/api/userv3/login', { user: ADMIN.user, password: 'brand-new-pass' })).statusCode).toBe(200);
  });

  it('sees a changed role, farm list or disabled user on the next call, though sessions and memberships are cached', async () => {
    const admin = await setupAdmin(t.app);
    const farm = await createFarm(admin, 'cache-a');
    const m = await createMember(admin, 'cached-user', [PERMISSION.miners], [farm.agentKey]);
    const list = () => m.client.get('/api/miner/list', { agentKey: farm.agentKey });
    expect((await list()).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200); // from the cache now
    // The role loses the miners key: forbidden at once.
    expect((await admin.post('/api/role/save', { id: m.roleId, name: 'role-cached-user', permissions: String(PERMISSION.users) })).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(403);
    expect((await admin.post('/api/role/save', { id: m.roleId, name: 'role-cached-user', permissions: String(PERMISSION.miners) })).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200);
    // The farm is taken away: not a member at once.
    expect((await admin.post('/api/user/save', { id: m.userId, user: 'cached-user', roleId: m.roleId, agentKeys: '' })).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(403);
    // Disabled: signed out at once.
    expect((await admin.post('/api/user/save', { id: m.userId, user: 'cached-user', roleId: m.roleId, agentKeys: farm.agentKey, disabled: true })).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(401);
  });

  it('sees a change written outside the server within the cache time', async () => {
    const admin = await setupAdmin(t.app);
    expect((await admin.get('/api/userv2/info')).statusCode).toBe(200);
    await t.db.deleteFrom('sessions').execute();
    await new Promise((r) => setTimeout(r, AUTH_CACHE_TTL_MS + 100));
    expect((await admin.get('/api/userv2/info')).statusCode).toBe(401);
  });

  it('binds e-mail and phone with the default area code 86', async () => {
    const a = await setupAdmin(t.app);
    const bad = await a.post('/api/userv2/bindEmail', { email: 'not-an-email' });
    expect(body(bad).msg).toBe('enter a correctly formatted email address');
    await a.post('/api/userv2/bindEmail', { email: 'ops@farm.example' });
    const m = await a.post('/api/userv2/bindMobile', { mobile: '13800138000' });
    expect(body(m).data).toMatchObject({ email: 'ops@farm.example', mobile: '13800138000', areaCode: '86' });
    // another member of a farm sees the contacts masked, never the full address or number
    await createFarm(a, 'contacts-farm');
    const member = await createMember(a, 'contactmember', [PERMISSION.miners], ['contacts-farm']);
    const res = await member.client.get('/api/userv2/search', { agentKey: 'contacts-farm' });
    expect(res.statusCode, res.body).toBe(200);
    const admin = body<{ user: string; email: string | null; mobile: string | null }[]>(res).data.find((u) => u.user === ADMIN.user);
    expect(admin).toMatchObject({ email: 'o***@farm.example', mobile: '+86 ***8000' });
    expect(res.body).not.toContain('13800138000');
  });

  it('refuses writes without X-Requested-With (CSRF)', async () => {
    const a = await setupAdmin(t.app);
    const res = await a.request({ method: 'POST', url: '/api/agent/createv2', payload: { agentName: 'x', agentKey: 'csrf-farm' }, headers: { 'x-requested-with': '' } });
    expect(res.statusCode).toBe(403);
    expect(await t.db.selectFrom('farms').selectAll().execute()).toHaveLength(0);
  });
});
