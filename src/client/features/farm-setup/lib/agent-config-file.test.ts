import { describe, expect, it } from 'vitest';
import { configFileText, isServerUrl } from './agent-config-file';

describe('agent config file', () => {
  it('has the shape of the package file, with the secret filled in', () => {
    expect(JSON.parse(configFileText({ server: ' https://farm.example ', agentKey: 'f1', secret: 's3cret' }))).toEqual({ server: 'https://farm.example', agentKey: 'f1', secret: 's3cret', dataDir: './agent-data' });
    expect(configFileText({ server: 'http://a', agentKey: 'f1', secret: '' })).toMatch(/\n$/);
  });

  it('accepts an http(s) origin only', () => {
    expect(isServerUrl('https://farm.example:8443')).toBe(true);
    expect(isServerUrl('http://10.0.0.2')).toBe(true);
    expect(isServerUrl('ftp://farm.example')).toBe(false);
    expect(isServerUrl('https://farm.example/api')).toBe(false);
    expect(isServerUrl('farm.example')).toBe(false);
  });
});
