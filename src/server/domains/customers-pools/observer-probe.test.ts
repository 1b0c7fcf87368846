import { describe, expect, it } from 'vitest';
import { readObserverHtml, readObserverJson } from './observer-probe';

describe('observer page parsing', () => {
  it('reads status / hashP / unit JSON, nested data, and refuses another coin or a failure status', () => {
    expect(readObserverJson({ status: 0, coin: 'BTC', hashP: 1.25, unit: 'PH/s' }, 'BTC')).toEqual({ hashP: 1.25, unit: 'PH/s' });
    expect(readObserverJson({ code: 0, data: { hashrate: '512.5', unit: 'th' } }, 'BTC')).toEqual({ hashP: 512.5, unit: 'TH/s' });
    expect(readObserverJson({ status: 0, coin: 'BTC', hashP: 1, unit: 'PH/s' }, 'LTC')).toBeNull();
    expect(readObserverJson({ status: 1, msg: 'not found' }, 'BTC')).toBeNull();
    expect(readObserverJson({ hashP: 1, unit: 'furlongs' }, 'BTC')).toBeNull();
  });
  it('reads the simulator HTML and a plain "Hashrate: value unit" text', () => {
    expect(readObserverHtml('<p>Hashrate: <span id="hashrate" data-unit="TH/s">843.2</span> TH/s</p>')).toEqual({ hashP: 843.2, unit: 'TH/s' });
    expect(readObserverHtml('<div>Hash rate: 12.5 PH/s</div>')).toEqual({ hashP: 12.5, unit: 'PH/s' });
    expect(readObserverHtml('<html>nothing</html>')).toBeNull();
  });
});
