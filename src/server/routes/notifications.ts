/** The notification bell (spec 1 §7; spec 2 notices): page, unread count, last unread, read one / all. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { NotificationPageQuery, NotificationReadBody } from '@shared/schemas/notification';
import { toNotification } from '../domains/notifications/notifications.repository';
import { AppError } from '../errors';
import { ok } from '../plugins/envelope';

export async function notificationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['notifications'];
  const cfg = { permission: 'authenticated' as const };

  app.get('/api/notification/pagelist', { config: cfg, schema: { tags, querystring: NotificationPageQuery } }, async (req) => {
    const { page, pageSize } = req.query;
    const base = db.selectFrom('notifications').where('user_id', '=', req.user!.id);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('publish_time', 'desc').orderBy('seq', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
      base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return ok({ list: rows.map(toNotification), total: count.n, curPage: page, pageSize });
  });

  app.get('/api/notification/unread', { config: cfg, schema: { tags } }, async (req) => {
    const r = await db.selectFrom('notifications').select(sql<number>`count(*)::int`.as('n')).where('user_id', '=', req.user!.id).where('read_at', 'is', null).executeTakeFirstOrThrow();
    return ok(r.n);
  });

  app.get('/api/notification/unReadLast', { config: cfg, schema: { tags } }, async (req) => {
    const r = await db.selectFrom('notifications').selectAll().where('user_id', '=', req.user!.id).where('read_at', 'is', null).orderBy('publish_time', 'desc').orderBy('seq', 'desc').limit(1).executeTakeFirst();
    return ok(r ? toNotification(r) : null);
  });

  app.post('/api/notification/read', { config: cfg, schema: { tags, body: NotificationReadBody } }, async (req) => {
    const r = await db
      .updateTable('notifications')
      .set({ read_at: sql`coalesce(read_at, now())` })
      .where('id', '=', req.body.id)
      .where('user_id', '=', req.user!.id)
      .returning('id')
      .executeTakeFirst();
    if (!r) throw new AppError('notFound');
    return ok(null);
  });

  app.post('/api/notification/readAll', { config: cfg, schema: { tags } }, async (req) => {
    await db.updateTable('notifications').set({ read_at: new Date() }).where('user_id', '=', req.user!.id).where('read_at', 'is', null).execute();
    return ok(null);
  });
}
