import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from './db';
import { formatBytes, queueStateText, timeText } from './outbox-text';

const t = ((key: string, vars?: Record<string, unknown>) => (vars ? `${key} ${JSON.stringify(vars)}` : key)) as unknown as TFunction<'offline'>;
const entry = (over: Partial<OutboxEntry>): OutboxEntry => ({
  id: '0190a5c4-0000-7000-8000-000000000000',
  kind: 'miner.note',
  method: 'POST',
  url: '/api/miner/notes',
  body: {},
  agentKey: 'farm-a',
  label: 'Note on 10.0.0.1',
  created: Date.UTC(2026, 10, 22, 8, 0),
  attempts: 0,
  state: 'pending',
  nextAttemptAt: Date.UTC(2026, 10, 22, 8, 5),
  lastError: null,
  ...over,
});

describe('outbox texts', () => {
  it('formats sizes 1024-based with localised digits', () => {
    expect(formatBytes(512, 'en-US')).toBe('512 B');
    expect(formatBytes(1536, 'en-US')).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 ** 3, 'en-US')).toBe('5 GB');
    expect(formatBytes(1.25 * 1024 ** 2, 'ru')).toBe('1,3 MB');
  });

  it('shows a time today without the date, another day with it', () => {
    const now = new Date(2026, 10, 22, 15, 0);
    expect(timeText(new Date(2026, 10, 22, 9, 7).getTime(), now)).toBe('09:07');
    expect(timeText(new Date(2026, 10, 20, 21, 7).getTime(), now)).toBe('11-20 21:07');
  });

  it('names the state of a waiting change', () => {
    expect(queueStateText(entry({ state: 'sending' }), false, t)).toBe('queue.sending');
    expect(queueStateText(entry({}), false, t)).toBe('queue.pending');
    expect(queueStateText(entry({}), true, t)).toBe('queue.paused');
    const failed = queueStateText(entry({ state: 'failed', attempts: 3, lastError: { status: 0, message: 'offline' } }), false, t);
    expect(failed).toContain('queue.failed');
    expect(failed).toContain('"attempts":3');
    expect(failed).toContain('"reason":"queue.networkError"');
    const refused = queueStateText(entry({ state: 'failed', attempts: 1, lastError: { status: 503, message: 'Server busy' } }), false, t);
    expect(refused).toContain('"reason":"Server busy"');
  });
});
