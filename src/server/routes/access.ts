/** Menus, roles (permission matrix) and users with farm membership. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { ALL_PERMISSION_KEYS, PERMISSION, buildMenuTree } from '@shared/menu-catalogue';
import { IdBody, type RoleRow, SaveRoleBody, SaveUserBody, UserListQuery, type UserMenus } from '@shared/schemas/access';
import { AgentKeyQuery } from '@shared/schemas/common';
import type { RoleRecord } from '../db/schema';
import { findUsersPage } from '../domains/users/users.repository';
import { AppError, fieldError } from '../errors';
import { ok } from '../plugins/envelope';
import { assertFarmMember } from '../plugins/permissions';
import { hashPassword } from '../security';

const KNOWN_KEYS = new Set(ALL_PERMISSION_KEYS);

function toRoleRow(r: RoleRecord & { user_count?: number }): RoleRow {
  return {
    id: r.id,
    name: r.name,
    remark: r.remark,
    permissions: [...r.permissions].sort((a, b) => a - b),
    builtin: r.builtin,
    userCount: r.user_count ?? 0,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/**
 * A role's keys a caller may save: an administrator any; anyone else no key they do not hold themselves, beyond
 * those the role already had (they may keep or remove those).
 */
function grantable(me: { is_admin: boolean }, held: ReadonlySet<number>, keys: number[], had: readonly number[]): void {
  if (me.is_admin) return;
  const before = new Set(had);
  if (keys.some((k) => !held.has(k) && !before.has(k))) throw fieldError('permissions', 'validation.permissionsNotHeld', 'forbidden');
}

/**
 * Why a caller may not give `role` to a user (null: they may): an administrator gives any; anyone else no
 * administrator role and none holding keys they do not hold themselves.
 */
function roleRefusal(me: { is_admin: boolean }, held: ReadonlySet<number>, role: Pick<RoleRecord, 'builtin' | 'permissions'>): 'adminOnly' | 'permissionsNotHeld' | null {
  if (me.is_admin) return null;
  if (role.builtin) return 'adminOnly';
  return role.permissions.every((k) => held.has(k)) ? null : 'permissionsNotHeld';
}

export async function accessRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  app.get('/api/role/userAgentMenus', { config: { permission: 'authenticated' }, schema: { tags: ['access'], querystring: AgentKeyQuery.partial() } }, async (req) => {
    let selfMiners = false;
    if (req.query.agentKey) {
      await assertFarmMember(app, req, req.query.agentKey);
      const farm = await db.selectFrom('farms').select('self_managed').where('agent_key', '=', req.query.agentKey).executeTakeFirst();
      selfMiners = Boolean(farm?.self_managed);
    }
    const data: UserMenus = { menus: buildMenuTree(req.permissions, { selfMiners }), permissions: [...req.permissions].sort((a, b) => a - b), selfMiners };
    return ok(data);
  });

  // Roles
  app.get('/api/role/list', { config: { permission: PERMISSION.roles }, schema: { tags: ['access'] } }, async () => {
    const rows = await db
      .selectFrom('roles')
      .selectAll('roles')
      .select(sql<number>`(select count(*)::int from users u where u.role_id = roles.id)`.as('user_count'))
      .orderBy('builtin', 'desc')
      .orderBy('created_at')
      .execute();
    return ok(rows.map(toRoleRow));
  });

  // The roles the caller may give (user/save).
  app.get('/api/options/role', { config: { permission: 'authenticated' }, schema: { tags: ['access'] } }, async (req) => {
    const rows = await db.selectFrom('roles').select(['id', 'name', 'builtin', 'permissions']).orderBy('builtin', 'desc').orderBy('created_at').execute();
    const givable = rows.filter((r) => roleRefusal(req.user!, req.permissions, r) === null);
    return ok(givable.map((r) => ({ text: r.name, value: r.id })));
  });

  app.post('/api/role/save', { config: { permission: PERMISSION.roleOperations }, schema: { tags: ['access'], body: SaveRoleBody } }, async (req) => {
    const b = req.body;
    const unknown = b.permissions.find((k) => !KNOWN_KEYS.has(k));
    if (unknown !== undefined) throw fieldError('permissions', 'validation.invalid');
    const perms = [...new Set(b.permissions)];
    const clash = await db.selectFrom('roles').select('id').where(sql`lower(name)`, '=', b.name.toLowerCase()).executeTakeFirst();
    if (clash && clash.id !== b.id) throw fieldError('name', 'conflict', 'conflict');
    if (b.id) {
      const existing = await db.selectFrom('roles').selectAll().where('id', '=', b.id).executeTakeFirst();
      if (!existing) throw new AppError('notFound');
      if (existing.builtin) throw new AppError('forbidden');
      grantable(req.user!, req.permissions, perms, existing.permissions);
      const row = await db.updateTable('roles').set({ name: b.name, remark: b.remark, permissions: perms }).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
      return ok(toRoleRow(row));
    }
    grantable(req.user!, req.permissions, perms, []);
    const row = await db.insertInto('roles').values({ name: b.name, remark: b.remark, permissions: perms }).returningAll().executeTakeFirstOrThrow();
    return ok(toRoleRow(row));
  });

  app.post('/api/role/delete', { config: { permission: PERMISSION.roleOperations }, schema: { tags: ['access'], body: IdBody } }, async (req) => {
    const role = await db.selectFrom('roles').selectAll().where('id', '=', req.body.id).executeTakeFirst();
    if (!role) throw new AppError('notFound');
    if (role.builtin) throw new AppError('forbidden');
    const used = await db.selectFrom('users').select('id').where('role_id', '=', role.id).executeTakeFirst();
    if (used) throw new AppError('roleInUse');
    await db.deleteFrom('roles').where('id', '=', role.id).execute();
    return ok(null);
  });

  // Users
  app.get('/api/user/list', { config: { permission: PERMISSION.users }, schema: { tags: ['access'], querystring: UserListQuery } }, async (req) => {
    const { list, total } = await findUsersPage(db, req.query);
    return ok({ list, total, curPage: req.query.page, pageSize: req.query.pageSize });
  });

  app.post('/api/user/save', { config: { permission: PERMISSION.userOperations }, schema: { tags: ['access'], body: SaveUserBody } }, async (req) => {
    const b = req.body;
    const me = req.user!;
    const role = await db.selectFrom('roles').selectAll().where('id', '=', b.roleId).executeTakeFirst();
    if (!role) throw fieldError('roleId', 'validation.roleRequired');
    const farms = b.agentKeys.length ? await db.selectFrom('farms').select('agent_key').where('agent_key', 'in', b.agentKeys).execute() : [];
    if (farms.length !== new Set(b.agentKeys).size) throw fieldError('agentKeys', 'validation.invalid');
    // A non-administrator may grant only farms they belong to.
    if (!me.is_admin && b.agentKeys.length) {
      const mine = await db.selectFrom('user_farms').select('agent_key').where('user_id', '=', me.id).where('agent_key', 'in', b.agentKeys).execute();
      if (mine.length !== new Set(b.agentKeys).size) throw new AppError('notMember');
    }
    const clash = await db.selectFrom('users').select('id').where(sql`lower(user_name)`, '=', b.user.toLowerCase()).executeTakeFirst();
    if (clash && clash.id !== b.id) throw fieldError('user', 'userTaken', 'userTaken');
    const isAdminRole = role.builtin;
    // Giving a role (a new user, a changed role; a user keeping theirs is no grant) needs the right to give it.
    const grants = () => {
      const refusal = roleRefusal(me, req.permissions, role);
      if (refusal === 'adminOnly') throw new AppError('adminOnly');
      if (refusal) throw fieldError('roleId', 'validation.permissionsNotHeld', 'forbidden');
    };
    const saved = await db.transaction().execute(async (trx) => {
      let id: string;
      if (b.id) {
        const existing = await trx.selectFrom('users').selectAll().where('id', '=', b.id).executeTakeFirst();
        if (!existing) throw new AppError('notFound');
        if (!me.is_admin && existing.is_admin) throw new AppError('adminOnly'); // nor edits an administrator (a password reset)
        if (existing.role_id !== role.id) grants();
        if (existing.id === me.id && b.disabled) throw new AppError('cannotDeleteSelf');
        if (existing.is_admin && (!isAdminRole || b.disabled)) {
          const admins = await trx.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).where('is_admin', '=', true).where('disabled', '=', false).executeTakeFirstOrThrow();
          if (admins.n <= 1) throw new AppError('lastAdmin');
        }
        await trx
          .updateTable('users')
          .set({
            user_name: b.user,
            email: b.email ?? null,
            mobile: b.mobile ?? null,
            area_code: b.areaCode,
            role_id: role.id,
            is_admin: isAdminRole,
            disabled: b.disabled,
            updated_at: new Date(),
            ...(b.password ? { password_hash: await hashPassword(b.password) } : {}),
          })
          .where('id', '=', existing.id)
          .execute();
        if (b.disabled || b.password) await trx.deleteFrom('sessions').where('user_id', '=', existing.id).execute();
        id = existing.id;
      } else {
        grants();
        if (!b.password) throw fieldError('password', 'validation.passwordRequired');
        const row = await trx
          .insertInto('users')
          .values({
            user_name: b.user,
            password_hash: await hashPassword(b.password),
            email: b.email ?? null,
            mobile: b.mobile ?? null,
            area_code: b.areaCode,
            role_id: role.id,
            is_admin: isAdminRole,
            disabled: b.disabled,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = row.id;
      }
      // A non-administrator sets the user's membership of their own farms; the user's other farms stay.
      await trx
        .deleteFrom('user_farms')
        .where('user_id', '=', id)
        .$if(!me.is_admin, (q) => q.where('agent_key', 'in', (eb) => eb.selectFrom('user_farms as mine').select('mine.agent_key').where('mine.user_id', '=', me.id)))
        .execute();
      if (b.agentKeys.length) {
        await trx
          .insertInto('user_farms')
          .values([...new Set(b.agentKeys)].map((k) => ({ user_id: id, agent_key: k })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      return id;
    });
    const row = (await findUsersPage(db, { page: 1, pageSize: 1000, keyword: b.user })).list.find((u) => u.id === saved);
    return ok(row ?? null);
  });

  app.post('/api/user/delete', { config: { permission: PERMISSION.userOperations }, schema: { tags: ['access'], body: IdBody } }, async (req) => {
    if (req.body.id === req.user!.id) throw new AppError('cannotDeleteSelf');
    const target = await db.selectFrom('users').selectAll().where('id', '=', req.body.id).executeTakeFirst();
    if (!target) throw new AppError('notFound');
    const me = req.user!;
    if (!me.is_admin) {
      if (target.is_admin) throw new AppError('adminOnly');
      // Nor a user who also works on farms the caller is not a member of.
      const elsewhere = await db
        .selectFrom('user_farms')
        .select('agent_key')
        .where('user_id', '=', target.id)
        .where('agent_key', 'not in', (eb) => eb.selectFrom('user_farms as mine').select('mine.agent_key').where('mine.user_id', '=', me.id))
        .executeTakeFirst();
      if (elsewhere) throw new AppError('notMember');
    }
    if (target.is_admin) {
      const admins = await db.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).where('is_admin', '=', true).executeTakeFirstOrThrow();
      if (admins.n <= 1) throw new AppError('lastAdmin');
    }
    await db.deleteFrom('users').where('id', '=', target.id).execute();
    return ok(null);
  });
}
