/**
 * The agent's command-line options (src/agent/main.ts parses them with node:util parseArgs, strictly). Shared because
 * the packaged agent's launcher (src/server/domains/agent-package/package-launcher.ts) writes them and its tests read
 * them back with this very table.
 */
export const AGENT_CLI_OPTIONS = {
  server: { type: 'string' },
  key: { type: 'string' },
  secret: { type: 'string' },
  'secret-file': { type: 'string' },
  'data-dir': { type: 'string' },
  config: { type: 'string' },
  'detail-every': { type: 'string' },
  'log-file': { type: 'string' },
  'poll-threads': { type: 'string' },
  help: { type: 'boolean' },
} as const;

/**
 * The environment variable the agent also takes its secret from (after --secret and --secret-file). The agent hands its
 * secret to the process it re-executes itself as (main.ts) through it, and the packaged agent's launcher hands the
 * file's secret through it: a secret on a command line can be read by every user of the computer (ps, /proc/<pid>/cmdline).
 */
export const AGENT_SECRET_ENV = 'HASHFIELD_AGENT_SECRET';

/**
 * V8 heap and collector settings of the agent (tests/bench/agent.bench.ts, 20,000 miners on two cores, poll threads
 * with the simulator on the same machine). A cycle's replies, parse trees and sockets (1,000 exchanges in flight)
 * mostly outlive one young-generation collection, so the young generation's size decides how much of them is copied
 * to the old generation and collected there again:
 * - `--max-old-space-size=192`: without a cap V8 lets garbage grow the heap to 700+ MB (live heap ≈ 30–60 MB per
 *   thread).
 * - `--max-semi-space-size=16` (V8's default; it was 4 to save memory): the flag governs every thread's young
 *   generation, the poll threads' resourceLimits included. Agent CPU per miner 292 → 248 µs, RSS +50–70 MiB.
 * - `--single-threaded-gc`: no background collector tasks. On cores the poll threads already keep busy, the
 *   collector's helper threads cost more than they save: 248 → 222 µs per miner (wall time per cycle 3.9 → 3.6 s).
 * Affordable since the snapshot texts live in gzip rather than in the heap (snapshot-texts.ts: steady-cycle RSS
 * 260 → 216 MiB with the old settings): agent ÷ bare client 1.82× → 1.46–1.51×, RSS peak 271–280 MiB (session 28).
 * The agent re-executes itself once with them unless a heap limit is already set (its main.ts; `--single-threaded-gc`
 * is not allowed in NODE_OPTIONS, it is given on node's command line); the Windows task of the package gives them on
 * node's command line, so no second process is started.
 */
export const AGENT_HEAP_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=16', '--single-threaded-gc'] as const;

/**
 * Environment of the re-executed agent: glibc's malloc keeps up to 8 arenas per core, one per thread that allocates;
 * with the poll threads (sharded-poller.ts) their freed socket and reply buffers stayed in those arenas. Two arenas:
 * RSS peak of a 20,000-miner agent with two poll threads 439 → 407 MiB for the same CPU (tests/bench/agent.bench.ts).
 * An operator's own MALLOC_ARENA_MAX wins. No effect on Windows (no glibc).
 */
export const AGENT_ENV = { MALLOC_ARENA_MAX: '2' } as const;

/** The agent package's Windows installer (server: agent-package.ts writes it) and the command that runs it, as administrator in the unpacked folder. */
export const AGENT_WINDOWS_INSTALLER = 'install-windows.ps1';
export const AGENT_WINDOWS_INSTALL_COMMAND = `powershell -ExecutionPolicy Bypass -File .\\${AGENT_WINDOWS_INSTALLER}`;
