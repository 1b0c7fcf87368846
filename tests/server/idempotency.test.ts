import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type TestApp, body, createTestApp, setupAdmin } from './harness';

describe('Idempotency-Key', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
  });
  afterAll(async () => t.close());

  it('runs a write once, replays the stored answer, refuses another body with 422 and a running key with 409', async () => {
    const key = '01937a6e-8f7b-7c1d-9e2f-a1b2c3d4e5f6';
    const payload = { agentName: 'Replay farm', agentKey: 'replay-1' };
    const first = await admin.post('/api/agent/createv2', payload, { 'idempotency-key': key });
    const second = await admin.post('/api/agent/createv2', payload, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    // The agent secret is shown once: not kept in the clear for replays (the farm keeps only its hash).
    const secret = body<{ secret: string }>(first).data.secret;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(body(second).data).toEqual({ ...body<object>(first).data, secret: null });
    const kept = await t.db.selectFrom('idempotency_keys').select('response').where('key', '=', key).executeTakeFirstOrThrow();
    expect(kept.response).not.toContain(secret);
    expect(await t.db.selectFrom('farms').selectAll().execute()).toHaveLength(1);
    const other = await admin.post('/api/agent/createv2', { ...payload, agentName: 'Changed' }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(422);
    await t.db.insertInto('idempotency_keys').values({ key: '01937a6e-0000-7000-8000-000000000001', scope: 'anon', request_hash: 'x', state: 'running' }).execute();
    const running = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await t.db.updateTable('idempotency_keys').set({ scope: `u:${running.id}` }).where('key', '=', '01937a6e-0000-7000-8000-000000000001').execute();
    const busy = await admin.post('/api/agent/createv2', { agentName: 'B', agentKey: 'busy-1' }, { 'idempotency-key': '01937a6e-0000-7000-8000-000000000001' });
    expect(busy.statusCode).toBe(409);
  });
});
