/**
 * First module of the packaged agent (agent.js): it runs before the agent's command line is read and fills
 * the options the operator did not give from the package's config file, `hashfield-agent.json` beside
 * agent.js (or the file named by HASHFIELD_AGENT_CONFIG):
 *   { "server": "https://…", "agentKey": "…", "secret": "", "dataDir": "./agent-data" }
 * The downloaded file has an empty secret: the installer puts the farm's secret in ("change file"), or gives
 * --secret / --secret-file / HASHFIELD_AGENT_SECRET. A relative dataDir is relative to the file. Options on the command
 * line win, so `node agent.js --secret …` works with the same file. The file's secret reaches the agent through the
 * environment (AGENT_SECRET_ENV), never through its command line, which every user of the computer can read.
 * Bundled into the package only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AGENT_SECRET_ENV } from '@shared/agent-cli';

export const PACKAGE_CONFIG_FILE = 'hashfield-agent.json';

export interface PackageConfig {
  server?: string;
  agentKey?: string;
  secret?: string;
  dataDir?: string;
}

const given = (argv: readonly string[], flag: string) => argv.some((a) => a === flag || a.startsWith(`${flag}=`));

/**
 * The argv with --server/--key/--data-dir appended from the config when absent, each as `--flag=value` (a value
 * beginning with "-" is then still read as the flag's value, where `--flag value` made the agent's parser stop with
 * "argument is ambiguous"). The secret is not among them: see fillSecret.
 */
export function fillArgs(argv: readonly string[], config: PackageConfig, configDir: string): string[] {
  const out = [...argv];
  const add = (flag: string, value: string | undefined) => {
    if (value && !given(argv, flag)) out.push(`${flag}=${value}`);
  };
  add('--server', config.server);
  add('--key', config.agentKey);
  add('--data-dir', config.dataDir ? path.resolve(configDir, config.dataDir) : undefined);
  return out;
}

/**
 * The environment's secret for the agent (AGENT_SECRET_ENV): the file's when the command line gives none (--secret
 * or --secret-file), else the environment's own; undefined when there is none at all.
 */
export function fillSecret(argv: readonly string[], config: PackageConfig, env: Record<string, string | undefined>): string | undefined {
  if (given(argv, '--secret') || given(argv, '--secret-file')) return env[AGENT_SECRET_ENV];
  return config.secret || env[AGENT_SECRET_ENV] || undefined;
}

/** Reads the config file; null when absent; throws a readable message when it is not a JSON object. */
export function readPackageConfig(file: string): PackageConfig | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${e instanceof Error ? e.message : String(e)}); fix it or download the package again`, { cause: e });
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${file} must hold a JSON object`);
  const o = v as Record<string, unknown>;
  const s = (k: string) => (typeof o[k] === 'string' ? (o[k] as string).trim() : undefined);
  return { server: s('server'), agentKey: s('agentKey'), secret: s('secret'), dataDir: s('dataDir') };
}

function launch(): void {
  const args = process.argv.slice(2);
  const file = path.resolve(process.env['HASHFIELD_AGENT_CONFIG'] ?? path.join(path.dirname(process.argv[1] ?? '.'), PACKAGE_CONFIG_FILE));
  if (args.includes('--help')) {
    // With the agent's option list, on stdout (asked-for help is not an error).
    if (process.env['HASHFIELD_AGENT_CHILD'] !== '1') console.log(`packaged agent: node agent.js [options]; --server, --key, --secret and --data-dir default to ${file}`);
    return;
  }
  let config: PackageConfig | null;
  try {
    config = readPackageConfig(file);
  } catch (e) {
    console.error(`[agent] ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  }
  if (!config) return;
  const filled = fillArgs(args, config, path.dirname(file));
  const secret = fillSecret(args, config, process.env);
  if (secret) process.env[AGENT_SECRET_ENV] = secret;
  else if (!given(args, '--secret') && !given(args, '--secret-file')) {
    console.error(`[agent] no secret: put the farm's agent secret in "secret" of ${file} (the console shows it), or give --secret`);
  }
  process.argv.splice(2, process.argv.length - 2, ...filled);
}

// Only in the bundle (the package build defines this); importing the module elsewhere does nothing.
declare const HASHFIELD_PACKAGE: boolean | undefined;
if (typeof HASHFIELD_PACKAGE !== 'undefined' && HASHFIELD_PACKAGE) launch();
