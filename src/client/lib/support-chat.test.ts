import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUPPORT_CHAT_SCRIPT_ID, scheduleSupportChat, supportChatUrl } from './support-chat';

const urls = { zh: 'https://chat.example/zh.js', other: 'https://chat.example/intl.js' };

describe('support chat widget (spec 1 §1)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    document.getElementById(SUPPORT_CHAT_SCRIPT_ID)?.remove();
  });

  it('uses the Chinese script for zh-CN and the other one otherwise', () => {
    expect(supportChatUrl('zh-CN', urls)).toBe(urls.zh);
    expect(supportChatUrl('en-US', urls)).toBe(urls.other);
    expect(supportChatUrl('ru', urls)).toBe(urls.other);
  });

  it('injects after 1 s and replaces the previous script on a locale change', () => {
    scheduleSupportChat('zh-CN', urls);
    vi.advanceTimersByTime(999);
    expect(document.getElementById(SUPPORT_CHAT_SCRIPT_ID)).toBeNull();
    vi.advanceTimersByTime(1);
    expect(document.getElementById(SUPPORT_CHAT_SCRIPT_ID)?.getAttribute('src')).toBe(urls.zh);
    scheduleSupportChat('ru', urls);
    expect(document.getElementById(SUPPORT_CHAT_SCRIPT_ID)).toBeNull();
    vi.advanceTimersByTime(1000);
    expect(document.querySelectorAll(`#${SUPPORT_CHAT_SCRIPT_ID}`)).toHaveLength(1);
    expect(document.getElementById(SUPPORT_CHAT_SCRIPT_ID)?.getAttribute('src')).toBe(urls.other);
  });

  it('cancelling before the delay injects nothing', () => {
    const cancel = scheduleSupportChat('en-US', urls);
    cancel();
    vi.advanceTimersByTime(2000);
    expect(document.getElementById(SUPPORT_CHAT_SCRIPT_ID)).toBeNull();
  });
});
