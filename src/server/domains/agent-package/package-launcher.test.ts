import path from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AGENT_CLI_OPTIONS } from '@shared/agent-cli';
import { fillArgs, fillSecret } from './package-launcher';

describe('fillArgs', () => {
  const config = { server: 'http://10.0.0.5:8080', agentKey: 'north-hall', secret: '-Xy_z0123456789abcdefABCDEFghij', dataDir: './agent-data' };

  it('fills the options from the file so the agent reads them back; the secret goes through the environment, never the command line', () => {
    const args = fillArgs([], config, '/opt/hashfield-agent');
    const { values } = parseArgs({ args, options: AGENT_CLI_OPTIONS });
    expect(values).toEqual({ server: 'http://10.0.0.5:8080', key: 'north-hall', 'data-dir': path.resolve('/opt/hashfield-agent', './agent-data') });
    expect(args.join(' ')).not.toContain(config.secret);
    // A secret beginning with "-" (1 in 64 of the older ones) arrives whole.
    expect(fillSecret(args, config, {})).toBe('-Xy_z0123456789abcdefABCDEFghij');
  });

  it('lets the command line win, in either form, and takes the secret from the environment when the file has none', () => {
    const args = fillArgs(['--key', 'other', '--secret=given'], { ...config, secret: '' }, '/x');
    const { values } = parseArgs({ args, options: AGENT_CLI_OPTIONS });
    expect(values.key).toBe('other');
    expect(values.secret).toBe('given');
    expect(fillSecret(args, config, {})).toBeUndefined(); // the agent reads its --secret
    expect(fillSecret([], { ...config, secret: '' }, { HASHFIELD_AGENT_SECRET: '-env-secret' })).toBe('-env-secret');
    expect(fillSecret(['--secret-file', '/etc/hf-secret'], config, {})).toBeUndefined(); // the file named on the command line wins
    expect(fillSecret([], { ...config, secret: '' }, {})).toBeUndefined();
  });
});
