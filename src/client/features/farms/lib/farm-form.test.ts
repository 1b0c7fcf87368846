import { describe, expect, it } from 'vitest';
import { EMPTY_FARM_FORM, farmToFormValues, toFarmBody, validateFarmForm, type FarmFormValues } from './farm-form';

const valid: FarmFormValues = { ...EMPTY_FARM_FORM, agentName: 'North site', agentKey: 'north-1' };

describe('validateFarmForm (spec 2 §5 Farm rules)', () => {
  it('accepts a minimal farm', () => {
    expect(validateFarmForm(valid, 'create')).toEqual({});
  });

  it('requires the name and caps it at 100 characters', () => {
    expect(validateFarmForm({ ...valid, agentName: '   ' }, 'create').agentName).toBe('validation.agentNameRequired');
    expect(validateFarmForm({ ...valid, agentName: 'x'.repeat(101) }, 'create').agentName).toBe('validation.agentNameMax');
    expect(validateFarmForm({ ...valid, agentName: 'x'.repeat(100) }, 'create').agentName).toBeUndefined();
  });

  it('requires the agentKey first, then checks its format', () => {
    expect(validateFarmForm({ ...valid, agentKey: '' }, 'create').agentKey).toBe('validation.agentKeyRequired');
    expect(validateFarmForm({ ...valid, agentKey: 'bad key!' }, 'create').agentKey).toBe('validation.agentKeyFormat');
  });

  it('does not re-check the format of a locked agentKey when editing', () => {
    expect(validateFarmForm({ ...valid, agentKey: 'legacy key' }, 'edit')).toEqual({});
  });

  it('needs comma-separated valid e-mails', () => {
    expect(validateFarmForm({ ...valid, noticeEmails: 'a@x.io, b@y.com' }, 'create')).toEqual({});
    expect(validateFarmForm({ ...valid, noticeEmails: 'a@x.io; b@y.com' }, 'create').noticeEmails).toBe('validation.noticeEmails');
    expect(validateFarmForm({ ...valid, noticeEmails: 'not-an-email' }, 'create').noticeEmails).toBe('validation.noticeEmails');
    expect(validateFarmForm({ ...valid, noticeEmails: '' }, 'create')).toEqual({});
  });

  it('reports every bad field at once', () => {
    const errors = validateFarmForm({ ...EMPTY_FARM_FORM, noticeEmails: 'x' }, 'create');
    expect(Object.keys(errors).sort()).toEqual(['agentKey', 'agentName', 'noticeEmails']);
  });
});

describe('toFarmBody', () => {
  it('trims fields and normalises the e-mail list', () => {
    expect(toFarmBody({ agentName: ' A ', agentKey: ' k1 ', noticeEmails: ' a@x.io ,, b@y.com ', agentAddr: ' r ', selfManaged: true })).toEqual({
      agentName: 'A',
      agentKey: 'k1',
      noticeEmails: 'a@x.io,b@y.com',
      agentAddr: 'r',
      selfManaged: true,
    });
  });
});

describe('farmToFormValues', () => {
  it('starts empty and reads an existing farm', () => {
    expect(farmToFormValues(undefined)).toEqual(EMPTY_FARM_FORM);
    expect(
      farmToFormValues({ timeout: 0, agentKey: 'k', version: null, noticeEmails: 'a@x.io', name: 'N', agentAddr: 'r', selfManaged: true, lastOnlineAt: null }),
    ).toEqual({ agentName: 'N', agentKey: 'k', noticeEmails: 'a@x.io', agentAddr: 'r', selfManaged: true });
  });
});
