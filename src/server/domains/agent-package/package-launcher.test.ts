import path from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AGENT_CLI_OPTIONS } from '@shared/agent-cli';
import { fillArgs } from './package-launcher';

describe('fillArgs', () => {
  const config = { server: 'http://10.0.0.5:8080', agentKey: 'north-hall', secret: '-Xy_z0123456789abcdefABCDEFghij', dataDir: './agent-data' };

  it('fills the options from the file so the agent reads them back, a secret beginning with "-" included', () => {
    const args = fillArgs([], config, '/opt/hashfield-agent', {});
    const { values } = parseArgs({ args, options: AGENT_CLI_OPTIONS });
    expect(values).toEqual({
      server: 'http://10.0.0.5:8080',
      key: 'north-hall',
      secret: '-Xy_z0123456789abcdefABCDEFghij',
      'data-dir': path.resolve('/opt/hashfield-agent', './agent-data'),
    });
  });

  it('lets the command line win, in either form, and takes the secret from the environment when the file has none', () => {
    const args = fillArgs(['--key', 'other', '--secret=given'], { ...config, secret: '' }, '/x', { HASHFIELD_AGENT_SECRET: 'from-env' });
    const { values } = parseArgs({ args, options: AGENT_CLI_OPTIONS });
    expect(values.key).toBe('other');
    expect(values.secret).toBe('given');
    const fromEnv = parseArgs({ args: fillArgs([], { ...config, secret: '' }, '/x', { HASHFIELD_AGENT_SECRET: '-env-secret' }), options: AGENT_CLI_OPTIONS });
    expect(fromEnv.values.secret).toBe('-env-secret');
  });
});
