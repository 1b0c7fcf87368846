import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maskedCommandLine, readSecret, secretOnCommandLine, withoutSecret } from './agent-secret';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-agent-secret-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readSecret', () => {
  it('takes --secret first, then the first line of --secret-file, then HASHFIELD_AGENT_SECRET', () => {
    const file = path.join(dir, 'secret');
    fs.writeFileSync(file, '  from-the-file-0123456789  \r\nsecond line\n');
    const env = { HASHFIELD_AGENT_SECRET: ' from-env-0123456789 ' };
    expect(readSecret({ secret: 'given', 'secret-file': file }, env)).toEqual({ secret: 'given', from: 'option' });
    expect(readSecret({ 'secret-file': file }, env)).toEqual({ secret: 'from-the-file-0123456789', from: 'file' });
    expect(readSecret({}, env)).toEqual({ secret: 'from-env-0123456789', from: 'env' });
    expect(readSecret({}, {})).toEqual({ secret: null });
    expect(readSecret({}, { HASHFIELD_AGENT_SECRET: '  ' })).toEqual({ secret: null });
  });

  it('names a file that cannot be read or is empty, never its content', () => {
    const missing = readSecret({ 'secret-file': path.join(dir, 'nope') }, {});
    expect(missing).toEqual({ secret: null, error: `cannot read --secret-file ${path.join(dir, 'nope')} (ENOENT)` });
    const empty = path.join(dir, 'empty');
    fs.writeFileSync(empty, '\n');
    expect(readSecret({ 'secret-file': empty }, {})).toEqual({ secret: null, error: `--secret-file ${empty} is empty: put the farm's agent secret on its first line` });
  });
});

describe('command lines', () => {
  const argv = ['/usr/bin/node', 'main.ts', '--server', 'http://x', '--secret', '-s3cret-value-0123', '--key', 'k'];

  it('finds the secret in either form, and not past "--" or in --secret-file', () => {
    expect(secretOnCommandLine(argv.slice(2))).toBe('-s3cret-value-0123');
    expect(secretOnCommandLine(['--secret=abc-def'])).toBe('abc-def');
    expect(secretOnCommandLine(['--secret-file', '/x'])).toBeNull();
    expect(secretOnCommandLine(['--', '--secret', 'x'])).toBeNull();
  });

  it('drops the secret and its value, and masks it for the process title', () => {
    expect(withoutSecret(argv)).toEqual(['/usr/bin/node', 'main.ts', '--server', 'http://x', '--key', 'k']);
    expect(withoutSecret(['--secret=a', '--secret-file', '/f', '--key', 'k'], ['--secret', '--secret-file'])).toEqual(['--key', 'k']);
    expect(withoutSecret(['--secret-file=/f', '--key', 'k'])).toEqual(['--secret-file=/f', '--key', 'k']);
    expect(maskedCommandLine(argv)).toBe('/usr/bin/node main.ts --server http://x --secret *** --key k');
    expect(maskedCommandLine(['node', '--secret=abc'])).toBe('node --secret=***');
  });
});
