import { describe, expect, it } from 'vitest';
import { noticeView } from './notice-content';

describe('noticeView (spec 2 §3)', () => {
  it('reads the device list of domain-style notices', () => {
    const v = noticeView({ type: 'pool_check', content: JSON.stringify([{ subId: 1, ip: '10.0.0.1', sn: 'X', customer: 'C', publishTime: 't' }]), summary: '{"agentName":"N","count":1}' });
    expect(v.kind).toBe('devices');
    if (v.kind === 'devices') {
      expect(v.rows[0]).toEqual({ subId: '1', ip: '10.0.0.1', sn: 'X', customer: 'C', publishTime: 't' });
      expect(v.summary?.count).toBe(1);
    }
  });
  it('reads temperature and humidity readings', () => {
    const v = noticeView({ type: 'temp_humid_warning', content: JSON.stringify({ agentName: 'N', illegalTemps: [{ deviceName: 'T', value: 41, unit: 'C' }], illegalHumids: [] }), summary: null });
    expect(v.kind === 'tempHumid' && v.temps[0]?.value).toBe('41');
  });
  it('falls back to the generic view for unknown types and unparsable content', () => {
    expect(noticeView({ type: 'news', content: 'hello', summary: null }).kind).toBe('generic');
    expect(noticeView({ type: 'domain', content: 'not json', summary: null }).kind).toBe('generic');
  });
});
