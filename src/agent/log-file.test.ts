import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RotatingLog } from './log-file';

describe('RotatingLog', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-agent-log-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('appends time-stamped lines, creating the folder', () => {
    const file = path.join(tmp(), 'agent-data', 'agent.log');
    const log = new RotatingLog(file);
    log.write('[agent] starting', new Date('2026-11-22T10:00:00.000Z'));
    log.write('[agent] cycle 1: 5/5 polled', new Date('2026-11-22T10:01:00.000Z'));
    expect(fs.readFileSync(file, 'utf8')).toBe('2026-11-22T10:00:00.000Z [agent] starting\n2026-11-22T10:01:00.000Z [agent] cycle 1: 5/5 polled\n');
  });

  it('starts a new file when the next line would pass the limit, keeping one previous file, also across restarts', () => {
    const file = path.join(tmp(), 'agent.log');
    const at = new Date('2026-11-22T10:00:00.000Z');
    const line = 'x'.repeat(74); // 100 bytes with the stamp and the newline
    const log = new RotatingLog(file, 250);
    for (let i = 0; i < 2; i++) log.write(line, at);
    expect(fs.statSync(file).size).toBe(200);
    log.write(`${line.slice(1)}3`, at); // would make 300
    expect(fs.readFileSync(`${file}.1`, 'utf8').split('\n')).toHaveLength(3);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${at.toISOString()} ${line.slice(1)}3\n`);
    // A restarted agent counts the file it finds (100 bytes): 200, then the third line starts a new file.
    const again = new RotatingLog(file, 250);
    again.write(line, at);
    expect(fs.existsSync(file) && fs.statSync(file).size).toBe(200);
    again.write(`${line.slice(1)}4`, at);
    expect(fs.readFileSync(`${file}.1`, 'utf8')).toBe(`${at.toISOString()} ${line.slice(1)}3\n${at.toISOString()} ${line}\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${at.toISOString()} ${line.slice(1)}4\n`);
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['agent.log', 'agent.log.1']);
  });
});
