/**
 * Seeds rows the public API cannot create (notifications are written by alarms and agent events of later
 * features; a farm whose agent last reported long ago). PGlite is single-process, so the server is stopped, the
 * database opened here, and the server started again on the same port and data directory.
 */
import { type DB, openDatabase } from '../../src/server/db/kysely';
import { notify, type NewNotice } from '../../src/server/domains/notifications/notifications.repository';
import type { E2EServer } from './e2e-server';

/** Runs `write` on the stopped server's database, then starts the server again. */
async function whileStopped(server: E2EServer, write: (db: DB) => Promise<void>): Promise<void> {
  await server.stop();
  const opened = await openDatabase({ dataDir: server.dataDir, databaseUrl: null });
  try {
    await write(opened.db);
  } finally {
    await opened.close();
  }
  await server.restart();
}

export function seedNotifications(server: E2EServer, userId: string, notices: NewNotice[]): Promise<void> {
  return whileStopped(server, async (db) => {
    // One at a time so publish times are distinct and ordered.
    for (const n of notices) await notify(db, n, { userIds: [userId] });
  });
}

/** Sets when the farm's agent last reported (heartbeat or upload): an agent that has gone quiet. */
export function setFarmLastOnline(server: E2EServer, agentKey: string, at: Date): Promise<void> {
  return whileStopped(server, async (db) => {
    await db.updateTable('farms').set({ last_online_at: at }).where('agent_key', '=', agentKey).execute();
  });
}
