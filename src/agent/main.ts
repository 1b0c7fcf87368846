import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_CLI_OPTIONS, AGENT_ENV, AGENT_HEAP_FLAGS } from '@shared/agent-cli';
import { FarmAgent } from './farm-agent';
import { logToFile } from './log-file';
import { MAX_POLL_THREADS } from './sharded-poller';

/**
 * CLI: npx tsx src/agent/main.ts --server <URL> --key <agentKey> --secret <secret>
 *      [--data-dir ./agent-data] [--config file.json] [--detail-every <cycles>] [--log-file agent.log] [--poll-threads <n>]
 * Runs the agent loop until SIGINT/SIGTERM, then finishes the current step and exits.
 */

function usage(msg?: string): never {
  if (msg) console.error(msg);
  console.error(`usage: npx tsx src/agent/main.ts --server <URL> --key <agentKey> --secret <secret> [--data-dir ./agent-data] [--config file.json] [--detail-every <cycles>] [--log-file <file>: the log there, not on the console; 10 MB, then <file>.1] [--poll-threads <n>: threads polling a fleet of 2,000 miners or more, 1-${MAX_POLL_THREADS}; default the cores, at most ${MAX_POLL_THREADS}]`);
  process.exit(2);
}

function hasHeapFlag(): boolean {
  return [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)].some((a) => a.startsWith('--max-old-space-size'));
}

function reexecWithHeapFlags(): boolean {
  if (hasHeapFlag() || process.env['HASHFIELD_AGENT_CHILD'] === '1') return false;
  const child = spawn(process.execPath, [...AGENT_HEAP_FLAGS, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...AGENT_ENV, ...process.env, HASHFIELD_AGENT_CHILD: '1' },
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
  return true;
}

async function main(): Promise<void> {
  if (reexecWithHeapFlags()) return;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ options: AGENT_CLI_OPTIONS }));
  } catch (e) {
    usage(e instanceof Error ? e.message : String(e));
  }
  if (values['help']) usage();
  const server = values['server'];
  const key = values['key'];
  const secret = values['secret'];
  if (typeof server !== 'string' || typeof key !== 'string' || typeof secret !== 'string') usage('missing --server, --key or --secret');
  try {
    new URL(server);
  } catch {
    usage(`invalid --server URL: ${server}`);
  }
  const detailEvery = values['detail-every'];
  const detailEveryCycles = typeof detailEvery === 'string' ? Number(detailEvery) : undefined;
  if (detailEveryCycles !== undefined && !(Number.isInteger(detailEveryCycles) && detailEveryCycles >= 1)) usage(`invalid --detail-every (a whole number of cycles ≥ 1): ${String(detailEvery)}`);
  const threads = values['poll-threads'];
  const pollThreads = typeof threads === 'string' ? Number(threads) : undefined;
  if (pollThreads !== undefined && !(Number.isInteger(pollThreads) && pollThreads >= 1 && pollThreads <= MAX_POLL_THREADS)) usage(`invalid --poll-threads (a whole number from 1 to ${MAX_POLL_THREADS}): ${String(threads)}`);
  const dataDir = path.resolve(typeof values['data-dir'] === 'string' ? values['data-dir'] : './agent-data');
  // From here on the log goes to the file when asked (a usage error above is shown to whoever ran the command).
  if (typeof values['log-file'] === 'string') logToFile(path.resolve(values['log-file']));
  const agent = new FarmAgent({
    serverUrl: server,
    agentKey: key,
    secret,
    dataDir,
    configFile: typeof values['config'] === 'string' ? path.resolve(values['config']) : undefined,
    detailEveryCycles,
    pollThreads,
  });
  let stopping = false;
  const onSignal = (sig: string) => {
    if (stopping) {
      console.error(`[agent] second ${sig}: exiting now`);
      process.exit(130);
    }
    stopping = true;
    console.error(`[agent] ${sig}: finishing the current step, then exiting (send again to force)`);
    agent.stop();
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  console.error(`[agent] starting: server ${server}, data dir ${dataDir}`);
  await agent.run();
  console.error('[agent] stopped');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
