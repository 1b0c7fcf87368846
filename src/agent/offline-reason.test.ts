import { describe, expect, it } from 'vitest';
import { AGENT_ERROR_CODES } from '@shared/schemas/miner-snapshot';
import { offlineReason, withOfflineReason } from './offline-reason';
import { RpcError } from './protocols/cgminer-rpc';
import { HttpError } from './protocols/http-client';
import { WhatsminerError } from './protocols/whatsminer';

describe('offline reason', () => {
  it('names the network failures of both protocols, and nothing else', () => {
    const code = (e: unknown) => offlineReason(e)?.code ?? null;
    expect(code(new RpcError('timeout', 'no reply'))).toBe(AGENT_ERROR_CODES.noAnswer);
    expect(code(new RpcError('connect-timeout', 'connect timeout'))).toBe(AGENT_ERROR_CODES.noAnswer);
    expect(code(new HttpError('timeout', 'GET /: no reply'))).toBe(AGENT_ERROR_CODES.noAnswer);
    expect(code(new RpcError('refused', 'connection refused'))).toBe(AGENT_ERROR_CODES.refused);
    expect(code(new HttpError('refused', 'connection refused'))).toBe(AGENT_ERROR_CODES.refused);
    expect(code(new RpcError('reset', 'ECONNRESET'))).toBe(AGENT_ERROR_CODES.dropped);
    expect(code(new RpcError('empty', 'closed'))).toBe(AGENT_ERROR_CODES.dropped);
    expect(code(new RpcError('unreachable', 'EHOSTUNREACH'))).toBe(AGENT_ERROR_CODES.unreachable);
    expect(code(new HttpError('unreachable', 'ENETUNREACH'))).toBe(AGENT_ERROR_CODES.unreachable);
    // The miner answered: not a network failure.
    for (const e of [new RpcError('parse', 'bad json'), new RpcError('denied', 'denied'), new HttpError('http-status', '500'), new WhatsminerError('bad-reply', 'x'), new Error('x'), 'x']) expect(code(e)).toBeNull();
  });

  it("puts the reason first, replacing an earlier one, and keeps the miner's own codes", () => {
    const own = { code: 2010, message: 'all hashboards not found' };
    const refused = offlineReason(new RpcError('refused', ''))!;
    const noAnswer = offlineReason(new RpcError('timeout', ''))!;
    expect(withOfflineReason([own], refused)).toEqual([refused, own]);
    expect(withOfflineReason([refused, own], noAnswer)).toEqual([noAnswer, own]);
    expect(withOfflineReason([refused, own], null)).toEqual([own]);
  });
});
