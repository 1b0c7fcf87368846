import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostReport } from '@shared/schemas/agent-uplink';
import { farmAddress, hostReport } from './host-report';

const nic = (address: string, family: 'IPv4' | 'IPv6' = 'IPv4', internal = false): os.NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '00:00:00:00:00:00', cidr: null }) as os.NetworkInterfaceInfo;

describe('host report', () => {
  it("reports this computer's name, system, cores, memory, free disk and uptime, as the server accepts them", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-host-'));
    try {
      const r = hostReport(dir);
      expect(HostReport.parse(r)).toEqual(r);
      expect(r).toMatchObject({ hostname: os.hostname(), cpuCores: os.availableParallelism(), memoryMb: Math.round(os.totalmem() / 2 ** 20) });
      expect(r.os).toMatch(new RegExp(`^.+, ${os.arch()}$`));
      expect(r.diskFreeMb).toBeGreaterThan(0);
      expect(r.uptimeSec).toBeGreaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the free disk out while the data directory does not exist', () => {
    expect(hostReport(path.join(os.tmpdir(), 'hf-host-missing', String(Date.now())))).not.toHaveProperty('diskFreeMb');
  });

  it("gives the farm-network address: a private IPv4 first, never loopback or IPv6", () => {
    expect(farmAddress({ lo: [nic('127.0.0.1', 'IPv4', true)], wan: [nic('203.0.113.7')], lan: [nic('fe80::1', 'IPv6'), nic('192.168.8.20')] })).toBe('192.168.8.20');
    expect(farmAddress({ eth0: [nic('10.20.0.5')] })).toBe('10.20.0.5');
    expect(farmAddress({ eth0: [nic('172.20.1.2')], eth1: [nic('172.40.0.1')] })).toBe('172.20.1.2');
    expect(farmAddress({ wan: [nic('203.0.113.7')] })).toBe('203.0.113.7');
    expect(farmAddress({ lo: [nic('127.0.0.1', 'IPv4', true)] })).toBeUndefined();
  });
});
