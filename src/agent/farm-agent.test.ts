import { describe, expect, it } from 'vitest';
import { displayServerUrl, formatOutage, serverStateOf } from './farm-agent';
import { UplinkError } from './uplink';

describe('how the agent tells the operator about the server', () => {
  it('sorts a failed call: refused (401), unreachable (no answer), other errors', () => {
    expect(serverStateOf(new UplinkError('GET /config: HTTP 401, the agent key or secret was not accepted', 401))).toBe('refused');
    expect(serverStateOf(new UplinkError('GET /api/agent-uplink/config: connect ECONNREFUSED 127.0.0.1:8080', null))).toBe('unreachable');
    expect(serverStateOf(new UplinkError('GET /config: HTTP 500', 500))).toBe('error');
    expect(serverStateOf(new Error('boom'))).toBe('error');
  });

  it('says how long the server was away in seconds, minutes or hours', () => {
    expect(formatOutage(4_400)).toBe('4 s');
    expect(formatOutage(192_000)).toBe('3 min 12 s');
    expect(formatOutage(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 5 min');
  });

  it('never prints a user or password written into the server address', () => {
    expect(displayServerUrl('https://ops:hunter2@hf.example.com/')).toBe('https://hf.example.com');
    expect(displayServerUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(displayServerUrl('http://10.0.0.5:8080/hashfield/')).toBe('http://10.0.0.5:8080/hashfield');
  });
});
