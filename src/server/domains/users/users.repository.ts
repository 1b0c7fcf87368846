import { sql } from 'kysely';
import type { CurrentUser } from '@shared/schemas/auth';
import type { UserRow } from '@shared/schemas/access';
import type { DB } from '../../db/kysely';
import type { UserRecord } from '../../db/schema';

export async function countUsers(db: DB): Promise<number> {
  const r = await db.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return r.n;
}

export async function findUserByName(db: DB, name: string): Promise<UserRecord | undefined> {
  return db.selectFrom('users').selectAll().where(sql`lower(user_name)`, '=', name.toLowerCase()).executeTakeFirst();
}

export async function toCurrentUser(db: DB, u: UserRecord): Promise<CurrentUser> {
  const role = u.role_id ? await db.selectFrom('roles').select('name').where('id', '=', u.role_id).executeTakeFirst() : undefined;
  return {
    id: u.id,
    user: u.user_name,
    email: u.email,
    mobile: u.mobile,
    areaCode: u.area_code,
    isAdmin: u.is_admin,
    roleId: u.role_id,
    roleName: role?.name ?? null,
  };
}

export async function findUsersPage(db: DB, q: { page: number; pageSize: number; keyword: string }): Promise<{ list: UserRow[]; total: number }> {
  let base = db.selectFrom('users').leftJoin('roles', 'roles.id', 'users.role_id');
  if (q.keyword) {
    const like = `%${q.keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([eb('users.user_name', 'ilike', like), eb('users.email', 'ilike', like), eb('users.mobile', 'ilike', like)]));
  }
  const [rows, count] = await Promise.all([
    base
      .select([
        'users.id',
        'users.user_name',
        'users.email',
        'users.mobile',
        'users.area_code',
        'users.is_admin',
        'users.role_id',
        'roles.name as role_name',
        'users.disabled',
        'users.created_at',
        'users.last_login_at',
        sql<string[]>`coalesce((select array_agg(uf.agent_key order by uf.agent_key) from user_farms uf where uf.user_id = users.id), '{}')`.as('agent_keys'),
      ])
      .orderBy('users.created_at', 'asc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: count.n,
    list: rows.map((r) => ({
      id: r.id,
      user: r.user_name,
      email: r.email,
      mobile: r.mobile,
      areaCode: r.area_code,
      isAdmin: r.is_admin,
      roleId: r.role_id,
      roleName: r.role_name,
      agentKeys: r.agent_keys,
      disabled: r.disabled,
      createdAt: new Date(r.created_at).toISOString(),
      lastLoginAt: r.last_login_at ? new Date(r.last_login_at).toISOString() : null,
    })),
  };
}
