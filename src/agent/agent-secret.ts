/**
 * Where the agent's secret comes from, and keeping it off command lines. Every user of the computer can read a
 * process's command line (ps, /proc/<pid>/cmdline), so:
 * - the secret can be given without one: `--secret-file <file>` (the file's first line) or the environment variable
 *   HASHFIELD_AGENT_SECRET (AGENT_SECRET_ENV); `--secret` still works and wins;
 * - a secret given with --secret is masked in the agent's own process title (main.ts), and the process the agent
 *   re-executes itself as (heap flags) gets it through its environment, never on its command line.
 */
import fs from 'node:fs';
import { AGENT_SECRET_ENV } from '@shared/agent-cli';

/** Where the secret came from; `error`: a --secret-file that cannot be read or is empty (the message names the file). */
export type SecretSource = { secret: string; from: 'option' | 'file' | 'env' } | { secret: null; error?: string };

/** The secret: --secret, else the first line of --secret-file, else the environment. Never part of a message. */
export function readSecret(values: { secret?: unknown; 'secret-file'?: unknown }, env: Record<string, string | undefined>): SecretSource {
  if (typeof values.secret === 'string') return { secret: values.secret, from: 'option' };
  const file = values['secret-file'];
  if (typeof file === 'string') {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { secret: null, error: `cannot read --secret-file ${file}${code ? ` (${code})` : ''}` };
    }
    const line = text.split(/\r?\n/)[0]!.trim();
    return line ? { secret: line, from: 'file' } : { secret: null, error: `--secret-file ${file} is empty: put the farm's agent secret on its first line` };
  }
  const fromEnv = env[AGENT_SECRET_ENV]?.trim();
  return fromEnv ? { secret: fromEnv, from: 'env' } : { secret: null };
}

/** The arguments without the options `flags` (default --secret) and their values, in either form (`--flag X`, `--flag=X`). */
export function withoutSecret(args: readonly string[], flags: readonly string[] = ['--secret']): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (flags.includes(a)) {
      i++; // its value
      continue;
    }
    if (flags.some((f) => a.startsWith(`${f}=`))) continue;
    out.push(a);
  }
  return out;
}

/** The secret a command line carries after --secret (either form), or null. */
export function secretOnCommandLine(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return null;
    if (a === '--secret') return args[i + 1] ?? null;
    if (a.startsWith('--secret=')) return a.slice('--secret='.length);
  }
  return null;
}

/** A command line as the process title shows it, the secret's value replaced by "***". */
export function maskedCommandLine(argv: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--secret' && i + 1 < argv.length) {
      out.push(a, '***');
      i++;
    } else if (a.startsWith('--secret=')) out.push('--secret=***');
    else out.push(a);
  }
  return out.join(' ');
}
