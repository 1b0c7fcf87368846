/** Starts the server: open (and migrate) the database, build the app, listen; close cleanly on signals. */
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/kysely';
import { startMaintenance } from './jobs/maintenance';

async function main(): Promise<void> {
  const config = loadConfig();
  const t0 = performance.now();
  const opened = await openDatabase(config);
  const app = await buildApp({ config, db: opened.db });
  const stopJobs = startMaintenance(opened.db, app.log, config.historyRetention);
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ db: opened.kind, startMs: Math.round(performance.now() - t0) }, `Hashfield listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    stopJobs();
    await app.close();
    await opened.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
