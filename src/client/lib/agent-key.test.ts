import { describe, expect, it } from 'vitest';
import { LAST_AGENT_KEY, SESSION_AGENT_KEY, getAgentKey, pickAgentKey, setAgentKey } from './agent-key';

const farms = [{ value: 'a' }, { value: 'b' }, { value: 'c' }];

describe('pickAgentKey', () => {
  it("keeps this tab's farm, else the last farm, else the first", () => {
    expect(pickAgentKey(farms, 'b', 'c')).toBe('b');
    expect(pickAgentKey(farms, 'gone', 'c')).toBe('c');
    expect(pickAgentKey(farms, null, 'gone')).toBe('a');
    expect(pickAgentKey([], 'a', 'b')).toBeNull();
  });
});

describe('setAgentKey', () => {
  it('stores the farm for the tab and as the last farm', () => {
    setAgentKey('north');
    expect(getAgentKey()).toBe('north');
    expect(sessionStorage.getItem(SESSION_AGENT_KEY)).toBe('north');
    expect(localStorage.getItem(LAST_AGENT_KEY)).toBe('north');
    setAgentKey(null);
    expect(sessionStorage.getItem(SESSION_AGENT_KEY)).toBeNull();
    expect(localStorage.getItem(LAST_AGENT_KEY)).toBe('north');
  });
});
