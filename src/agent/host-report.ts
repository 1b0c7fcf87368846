/**
 * What the agent tells the server about its computer with every heartbeat (the NUC host info page and the
 * dashboard's NUC panel): name, operating system, cores, memory, free disk where the readings are buffered, uptime,
 * and its address on the farm network. All of it comes from the operating system in a few microseconds (the free
 * space is one statfs call); the system's name is read once.
 */
import { readFileSync, statfsSync } from 'node:fs';
import os from 'node:os';
import type { HostReport } from '@shared/schemas/agent-uplink';

const MIB = 1024 * 1024;

/** "Debian GNU/Linux 12 (bookworm), x64", "Windows 10 Pro, x64", "Darwin 23.1.0, arm64". */
function systemName(): string {
  let name = '';
  if (process.platform === 'linux') {
    try {
      name = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? '';
    } catch {
      // no os-release: the kernel's name below
    }
  } else if (process.platform === 'win32') {
    name = os.version(); // "Windows 10 Pro"
  }
  return `${name || `${os.type()} ${os.release()}`}, ${os.arch()}`;
}

let system: string | undefined;

/** 10.x, 172.16–31.x and 192.168.x: a farm network's addresses. */
const isPrivate = (ip: string): boolean => /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip);

/** The computer's IPv4 address on the farm network: a private one first, else any that is not loopback. */
export function farmAddress(interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): string | undefined {
  const all = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
  return all.find(isPrivate) ?? all[0];
}

/** The report; `dataDir` is where the agent buffers readings (its free space is what matters when the uplink is down). */
export function hostReport(dataDir: string): HostReport {
  system ??= systemName();
  const report: HostReport = {
    hostname: os.hostname().slice(0, 200),
    os: system.slice(0, 200),
    cpuCores: os.availableParallelism(),
    memoryMb: Math.round(os.totalmem() / MIB),
    uptimeSec: Math.round(os.uptime()),
  };
  try {
    const disk = statfsSync(dataDir);
    report.diskFreeMb = Math.round((disk.bavail * disk.bsize) / MIB);
  } catch {
    // the data directory is not there yet: no figure this time
  }
  const ip = farmAddress();
  if (ip) report.ip = ip;
  return report;
}
