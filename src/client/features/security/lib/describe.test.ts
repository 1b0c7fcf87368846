import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { describeSecurity } from './describe';

const t = ((key: string, o?: Record<string, unknown>) => `${key}${o ? ` ${JSON.stringify(o)}` : ''}`) as unknown as TFunction<'security'>;

describe('describeSecurity', () => {
  it('writes one line per login source, brute force, open port, lone failures and an unread log', () => {
    const lines = describeSecurity(t, {
      kinds: ['ssh-login', 'ssh-brute-force', 'ssh-open'],
      report: {
        sshOpen: true,
        banner: 'SSH-2.0-dropbear_2020.81',
        logRead: true,
        events: [
          { kind: 'failed', source: '203.0.113.45', user: 'root', count: 8, lastLine: 'a' },
          { kind: 'login', source: '203.0.113.45', user: 'root', count: 1, lastLine: 'b' },
          { kind: 'failed', source: '198.51.100.2', count: 2, lastLine: 'c' },
        ],
      },
    });
    expect(lines).toEqual([
      'desc.loginAs {"count":1,"source":"203.0.113.45","user":"root"}',
      'desc.bruteForce {"count":8,"source":"203.0.113.45"}',
      'desc.openBanner {"banner":"SSH-2.0-dropbear_2020.81"}',
      'desc.failed {"count":2,"source":"198.51.100.2"}',
    ]);
    expect(describeSecurity(t, { kinds: ['ssh-open'], report: { sshOpen: true, logRead: false, events: [] } })).toEqual(['desc.open', 'desc.logUnread']);
  });
});
