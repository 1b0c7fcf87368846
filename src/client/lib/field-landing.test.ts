import { describe, expect, it } from 'vitest';
import { FIELD_SESSION_KEY, landsOnField } from './field-landing';

const store = (value: string | null) => ({ getItem: (k: string) => (k === FIELD_SESSION_KEY ? value : null) });
const copy = (farms: unknown[]) => JSON.stringify({ user: { id: '1', user: 'tech', isAdmin: false }, farms });

describe('landsOnField', () => {
  it('opens /field at / on a phone whose field app has a farm', () => {
    expect(landsOnField('/', store(copy([{ label: 'North Hall', value: 'north' }])), true)).toBe(true);
  });
  it('leaves the decision to the console otherwise', () => {
    expect(landsOnField('/', store(copy([{ label: 'North Hall', value: 'north' }])), false)).toBe(false); // desktop
    expect(landsOnField('/device/miner', store(copy([{ label: 'N', value: 'n' }])), true)).toBe(false); // another page
    expect(landsOnField('/', store(copy([])), true)).toBe(false); // no farm: the dashboard's "create a farm"
    expect(landsOnField('/', store(null), true)).toBe(false); // the field app never ran here
    expect(landsOnField('/', store('{broken'), true)).toBe(false);
    expect(landsOnField('/', null, true)).toBe(false); // storage blocked
  });
});
