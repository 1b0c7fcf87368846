import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_CLI_OPTIONS } from '@shared/agent-cli';
import { FarmAgent } from './farm-agent';

/**
 * CLI: npx tsx src/agent/main.ts --server <URL> --key <agentKey> --secret <secret>
 *      [--data-dir ./agent-data] [--config file.json] [--detail-every <cycles>]
 * Runs the agent loop until SIGINT/SIGTERM, then finishes the current step and exits.
 */

function usage(msg?: string): never {
  if (msg) console.error(msg);
  console.error('usage: npx tsx src/agent/main.ts --server <URL> --key <agentKey> --secret <secret> [--data-dir ./agent-data] [--config file.json] [--detail-every <cycles>]');
  process.exit(2);
}

/**
 * V8 heap settings that keep a 20,000-miner agent under ~300 MB RSS (measured: live heap ≈ 65–125 MB;
 * without a cap V8 lets garbage grow the heap to 700+ MB). Semi-space 8 MB rather than 16: the young
 * generation is three semi-spaces, and at 5,000 miners the peak RSS of a steady cycle fell from 216 to
 * 183 MB for the same CPU time (tests/bench/agent.bench.ts). Applied by re-executing once with the flags
 * unless the operator already set a heap limit (NODE_OPTIONS or execArgv).
 */
const HEAP_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=8'];

function hasHeapFlag(): boolean {
  return [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)].some((a) => a.startsWith('--max-old-space-size'));
}

function reexecWithHeapFlags(): boolean {
  if (hasHeapFlag() || process.env['HASHFIELD_AGENT_CHILD'] === '1') return false;
  const child = spawn(process.execPath, [...HEAP_FLAGS, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, HASHFIELD_AGENT_CHILD: '1' },
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
  const dataDir = path.resolve(typeof values['data-dir'] === 'string' ? values['data-dir'] : './agent-data');
  const agent = new FarmAgent({
    serverUrl: server,
    agentKey: key,
    secret,
    dataDir,
    configFile: typeof values['config'] === 'string' ? path.resolve(values['config']) : undefined,
    detailEveryCycles,
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
