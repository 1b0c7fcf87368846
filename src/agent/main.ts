import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_CLI_OPTIONS, AGENT_ENV, AGENT_HEAP_FLAGS, AGENT_SECRET_ENV } from '@shared/agent-cli';
import { AGENT_KEY_RE } from '@shared/validation';
import { maskedCommandLine, readSecret, secretOnCommandLine, withoutSecret } from './agent-secret';
import { FarmAgent, displayServerUrl } from './farm-agent';
import { logToFile } from './log-file';
import { MAX_POLL_THREADS } from './sharded-poller';

/**
 * CLI: npx tsx src/agent/main.ts --server <URL> --key <agentKey> (--secret <secret> | --secret-file <file> | HASHFIELD_AGENT_SECRET)
 *      [--data-dir ./agent-data] [--config file.json] [--detail-every <cycles>] [--log-file agent.log] [--poll-threads <n>]
 * Runs the agent loop until SIGINT/SIGTERM, then finishes the current step and exits.
 */

const HELP = [
  'Hashfield farm agent: finds the miners in the farm\'s scan IP ranges, polls them every cycle and reports to the server.',
  '',
  'usage: npm run agent -- --server <URL> --key <agentKey> --secret <secret> [options]',
  '       (the packaged agent: node agent.js --server <URL> --key <agentKey> --secret <secret> [options])',
  '',
  '  --server <URL>         the Hashfield server, e.g. https://hashfield.example.com (http:// or https://)',
  '  --key <agentKey>       the farm\'s agent key, as shown in the console (Farms)',
  '  --secret <secret>      the farm\'s agent secret, shown once when the farm is created or its secret rotated',
  `  --secret-file <file>   read the secret from the file's first line instead (or set ${AGENT_SECRET_ENV}):`,
  '                         a command line can be read by every user of this computer',
  '  --data-dir <dir>       where the agent keeps its state and the readings not yet sent (default ./agent-data)',
  '  --config <file.json>   configuration to use while the server has never answered',
  '  --detail-every <n>     re-read MAC, SN, LED and network mode every n cycles at the latest (default 60)',
  '  --log-file <file>      write the log to this file instead of the console (10 MB, then <file>.1)',
  `  --poll-threads <n>     threads polling a fleet of 2,000 miners or more, 1-${MAX_POLL_THREADS} (default the cores, at most ${MAX_POLL_THREADS})`,
  '  --help                 this text',
].join('\n');

/** A usage error: the problem and how to get help, on stderr, exit code 2. */
function usage(msg: string): never {
  console.error(`${msg}\nRun with --help for the options.`);
  process.exit(2);
}

/** --help: the options, on stdout, exit code 0 (asked for, so not an error; a usage error stays stderr + 2). */
function help(): never {
  console.log(HELP);
  process.exit(0);
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The agent's own secret check before any call: the server accepts 16-128 letters, digits, - and _. */
const SECRET_RE = /^[A-Za-z0-9_-]{16,128}$/;

function hasHeapFlag(): boolean {
  return [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)].some((a) => a.startsWith('--max-old-space-size'));
}

/**
 * Re-executes the agent with its heap flags (AGENT_HEAP_FLAGS). A secret given with --secret goes to the new process
 * through its environment (agent-secret.ts), not on its command line; it wins over a --secret-file there too, as here.
 */
function reexecWithHeapFlags(): boolean {
  if (hasHeapFlag() || process.env['HASHFIELD_AGENT_CHILD'] === '1') return false;
  const args = process.argv.slice(1);
  const secret = secretOnCommandLine(args.slice(1));
  const child = spawn(process.execPath, [...AGENT_HEAP_FLAGS, ...process.execArgv, ...(secret === null ? args : withoutSecret(args, ['--secret', '--secret-file']))], {
    stdio: 'inherit',
    env: { ...AGENT_ENV, ...process.env, HASHFIELD_AGENT_CHILD: '1', ...(secret === null ? {} : { [AGENT_SECRET_ENV]: secret }) },
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
  return true;
}

async function main(): Promise<void> {
  // A secret typed on the command line: masked in this process's title, which is what ps and /proc/<pid>/cmdline show.
  if (secretOnCommandLine(process.argv.slice(2)) !== null) process.title = maskedCommandLine(process.argv);
  if (reexecWithHeapFlags()) return;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ options: AGENT_CLI_OPTIONS }));
  } catch (e) {
    usage(e instanceof Error ? e.message : String(e));
  }
  if (values['help']) help();
  const server = values['server'];
  const key = values['key'];
  const found = readSecret(values, process.env);
  if (found.secret === null && found.error) usage(found.error);
  const secret = found.secret;
  const missing = [...(['server', 'key'] as const).filter((o) => typeof values[o] !== 'string').map((o) => `--${o}`), ...(secret === null ? [`--secret (or --secret-file, or ${AGENT_SECRET_ENV})`] : [])];
  if (typeof server !== 'string' || typeof key !== 'string' || secret === null) usage(`missing --server, --key or --secret (not given: ${missing.join(', ')})`);
  if (!isHttpUrl(server)) usage(`invalid --server URL: ${server} (give the whole address, e.g. http://192.168.1.10:8080 or https://hashfield.example.com)`);
  if (!AGENT_KEY_RE.test(key)) usage(`invalid --key: "${key}" (the farm's agent key: letters, digits, - and _, as shown in the console)`);
  // Never echo the secret itself: it may end up in a service manager's log.
  if (!SECRET_RE.test(secret)) usage(`invalid ${found.from === 'option' ? '--secret' : found.from === 'file' ? '--secret-file' : AGENT_SECRET_ENV} (${secret.length} characters): the farm's secret is 16 to 128 letters, digits, - and _; copy it again from the console`);
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
  console.error(`[agent] starting: server ${displayServerUrl(server)}, farm ${key}, data dir ${dataDir}`);
  await agent.run();
  console.error('[agent] stopped');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
