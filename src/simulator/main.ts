import { DEMO_FAULT_RATES } from './faults';
import { startFleet, type FleetOptions } from './fleet';
import { FAULT_KINDS, OFFLINE_ANSWERS, SIM_FAMILIES, type FaultKind, type OfflineAnswer, type SimFamily } from './sim-types';

/**
 * CLI: npx tsx src/simulator/main.ts --miners 1000 --cidr 127.20.0.0/16 --rpc-port 4028 --web-port 80 --seed 1
 * Extra flags: --v3-port, --ssh-port (default 22, else 2222), --control-port, --bind, --tick-ms, --reboot-dark-ms,
 * --mix family=w,…, --fault-rates kind=r,… (kinds: sim-types.ts FAULT_KINDS, ssh-intrusion included), --demo-faults
 * (the fault rates of a farm as operators see one, faults.ts DEMO_FAULT_RATES: ~2 % of the miners faulty).
 */

const USAGE = 'usage: main.ts --miners N [--cidr CIDR] [--rpc-port P] [--web-port P] [--v3-port P] [--ssh-port P] [--control-port P] [--bind HOST] [--seed S] [--tick-ms MS] [--reboot-dark-ms MS] [--mix family=w,...] [--fault-rates kind=r,...] [--demo-faults] [--offline-answer silent|reset]';

function num(name: string, v: string | undefined): number {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n)) throw new Error(`${name} needs a number\n${USAGE}`);
  return n;
}

function pairs<K extends string>(name: string, v: string | undefined, allowed: readonly K[]): Partial<Record<K, number>> {
  if (!v) throw new Error(`${name} needs key=value pairs\n${USAGE}`);
  const out: Partial<Record<K, number>> = {};
  for (const part of v.split(',')) {
    const [k, val] = part.split('=');
    if (!k || !allowed.includes(k as K)) throw new Error(`${name}: unknown key ${k ?? ''} (allowed: ${allowed.join(', ')})`);
    out[k as K] = num(name, val);
  }
  return out;
}

export function parseArgs(argv: readonly string[]): FleetOptions {
  const opts: FleetOptions = { miners: 100 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = (): string | undefined => argv[++i];
    switch (a) {
      case '--miners': opts.miners = num(a, next()); break;
      case '--cidr': opts.cidr = next(); break;
      case '--rpc-port': opts.rpcPort = num(a, next()); break;
      case '--web-port': opts.webPort = num(a, next()); break;
      case '--v3-port': opts.whatsminerV3Port = num(a, next()); break;
      case '--ssh-port': opts.sshPort = num(a, next()); break;
      case '--control-port': opts.controlPort = num(a, next()); break;
      case '--bind': opts.bindHost = next(); break;
      case '--seed': opts.seed = num(a, next()); break;
      case '--tick-ms': opts.tickMs = num(a, next()); break;
      case '--reboot-dark-ms': opts.rebootDarkMs = num(a, next()); break;
      case '--mix': opts.mix = pairs<SimFamily>(a, next(), SIM_FAMILIES); break;
      case '--fault-rates': opts.faultRates = { ...opts.faultRates, ...pairs<FaultKind>(a, next(), FAULT_KINDS) }; break;
      // a demo farm's offline miners are powered off or cut off: silent, unless --offline-answer says otherwise
      case '--demo-faults': opts.faultRates = { ...DEMO_FAULT_RATES, ...opts.faultRates }; opts.offlineAnswer ??= 'silent'; break;
      case '--offline-answer': {
        const v = next();
        if (!OFFLINE_ANSWERS.includes(v as OfflineAnswer)) throw new Error(`${a} needs one of ${OFFLINE_ANSWERS.join(', ')}\n${USAGE}`);
        opts.offlineAnswer = v as OfflineAnswer;
        break;
      }
      case '--help': case '-h': console.log(USAGE); process.exit(0); break;
      default: throw new Error(`unknown argument ${a ?? ''}\n${USAGE}`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  let opts: FleetOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const t0 = Date.now();
  const fleet = await startFleet(opts);
  const first = fleet.miners[0]?.ip ?? '-';
  const last = fleet.miners[fleet.miners.length - 1]?.ip ?? '-';
  console.log(`simulator: ${fleet.miners.length} miners ${first}..${last} rpc=${fleet.ports.rpc} web=${fleet.ports.web} whatsminer-v3=${fleet.ports.whatsminerV3} ssh=${fleet.ports.ssh} control=http://127.0.0.1:${fleet.ports.control}/ started in ${Date.now() - t0} ms`);
  let stopping = false;
  const stop = (sig: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`simulator: ${sig}, closing`);
    fleet.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // the tick timer is unref'd; keep the process alive while servers listen
  setInterval(() => undefined, 1 << 30);
}

void main();
