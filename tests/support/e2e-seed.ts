/**
 * Seeds rows the public API cannot create (notifications are written by alarms and agent events of later
 * features). PGlite is single-process, so the server is stopped, the database opened here, and the server
 * started again on the same port and data directory.
 */
import { openDatabase } from '../../src/server/db/kysely';
import { notify, type NewNotice } from '../../src/server/domains/notifications/notifications.repository';
import type { E2EServer } from './e2e-server';

export async function seedNotifications(server: E2EServer, userId: string, notices: NewNotice[]): Promise<void> {
  await server.stop();
  const opened = await openDatabase({ dataDir: server.dataDir, databaseUrl: null });
  try {
    // One at a time so publish times are distinct and ordered.
    for (const n of notices) await notify(opened.db, n, { userIds: [userId] });
  } finally {
    await opened.close();
  }
  await server.restart();
}
