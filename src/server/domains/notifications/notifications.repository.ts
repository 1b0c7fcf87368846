import type { Notification } from '@shared/schemas/notification';
import type { DB } from '../../db/kysely';
import type { NotificationRecord } from '../../db/schema';

export function toNotification(r: NotificationRecord): Notification {
  return {
    id: r.id,
    type: r.type,
    title: r.title,
    content: r.content,
    summary: r.summary,
    publishTime: new Date(r.publish_time).toISOString(),
    isRead: r.read_at !== null,
    agentKey: r.agent_key,
  };
}

export interface NewNotice {
  type: string;
  title: string;
  content?: string;
  summary?: string | null;
  agentKey?: string | null;
}

/**
 * Creates a notification for every member of the farm (administrators included), or for the given users.
 * Alarms, agent updates and pool checks of later features call this.
 */
export async function notify(db: DB, notice: NewNotice, to: { agentKey: string } | { userIds: string[] }): Promise<number> {
  const userIds =
    'userIds' in to
      ? to.userIds
      : (
          await db
            .selectFrom('users')
            .select('id')
            .where('disabled', '=', false)
            .where((eb) => eb.or([eb('is_admin', '=', true), eb('id', 'in', eb.selectFrom('user_farms').select('user_id').where('agent_key', '=', to.agentKey))]))
            .execute()
        ).map((r) => r.id);
  if (userIds.length === 0) return 0;
  const agentKey = 'agentKey' in to ? to.agentKey : (notice.agentKey ?? null);
  await db
    .insertInto('notifications')
    .values(userIds.map((user_id) => ({ user_id, agent_key: agentKey, type: notice.type, title: notice.title, content: notice.content ?? '', summary: notice.summary ?? null })))
    .execute();
  return userIds.length;
}
