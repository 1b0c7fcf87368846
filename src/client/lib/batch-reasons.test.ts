/**
 * A batch failure's reason in the reader's language: the code translated, the detail after one colon and one space —
 * whether the agent wrote 'unreachable:timeout' or 'unreachable: timeout' (never "unreachable:  timeout").
 */
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import enMiners from '@locales/en-US/miners.json';
import { splitReason, useReasonLabel } from './batch-reasons';

async function reasonLabel(): Promise<(reason: string) => string> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { miners: enMiners } }, ns: ['miners'], defaultNS: 'miners', interpolation: { escapeValue: false } });
  const wrapper = ({ children }: { children: ReactNode }) => createElement(I18nextProvider, { i18n }, children);
  return renderHook(() => useReasonLabel(), { wrapper }).result.current;
}

describe('batch reasons', () => {
  it('splits the code from the detail, both trimmed', () => {
    expect(splitReason('unreachable: timeout')).toEqual({ code: 'unreachable', detail: 'timeout' });
    expect(splitReason('unreachable:timeout')).toEqual({ code: 'unreachable', detail: 'timeout' });
    expect(splitReason(' offline ')).toEqual({ code: 'offline', detail: '' });
    expect(splitReason('unsupported-op: a: b ')).toEqual({ code: 'unsupported-op', detail: 'a: b' });
  });

  it('renders a reason with a detail with one space after the colon', async () => {
    const label = await reasonLabel();
    const offline = enMiners.batch.reasons.offline;
    const unreachable = enMiners.batch.reasons.unreachable;
    const unsupported = enMiners.batch.reasons['unsupported-op'];
    expect(label('offline')).toBe(offline);
    expect(label('unreachable: timeout')).toBe(`${unreachable}: timeout`);
    expect(label('unreachable:timeout')).toBe(`${unreachable}: timeout`);
    expect(label('unsupported-op:  no fan-speed setting ')).toBe(`${unsupported}: no fan-speed setting`);
    expect(label('no-such-code: x')).toBe('no-such-code: x');
    expect(label('unreachable: timeout')).not.toMatch(/ {2}/);
  });
});
