import { describe, expect, it } from 'vitest';
import { toSaveUserBody, userToFormValues, validateUserForm, type UserFormValues } from './user-form';

const ROLE = '0190d6a4-7c1e-7b3e-9a55-4f3f2a1b0c9d';
const valid: UserFormValues = { ...userToFormValues(undefined), user: 'alice', password: 'longenough', roleId: ROLE };

describe('validateUserForm', () => {
  it('defaults the area code to 86', () => {
    expect(userToFormValues(undefined).areaCode).toBe('86');
  });

  it('accepts a valid new user', () => {
    expect(validateUserForm(valid, 'create')).toEqual({});
  });

  it('requires the password on create only', () => {
    expect(validateUserForm({ ...valid, password: '' }, 'create').password).toBe('validation.passwordRequired');
    expect(validateUserForm({ ...valid, password: '' }, 'edit')).toEqual({});
    expect(validateUserForm({ ...valid, password: 'short' }, 'edit').password).toBe('validation.passwordMin');
  });

  it('checks the user name, e-mail, mobile and role', () => {
    const errors = validateUserForm({ ...valid, user: 'a', email: 'nope', mobile: '12', roleId: null }, 'create');
    expect(errors).toEqual({
      user: 'validation.userName',
      email: 'validation.email',
      mobile: 'validation.mobile',
      roleId: 'validation.roleRequired',
    });
  });

  it('accepts a role id that is not a uuid (the server owns that check)', () => {
    expect(validateUserForm({ ...valid, roleId: 'admin' }, 'create')).toEqual({});
  });
});

describe('toSaveUserBody', () => {
  it('joins farms, omits an empty password and keeps the id', () => {
    expect(toSaveUserBody({ ...valid, password: '', agentKeys: ['a', 'b'], email: ' x@y.io ' }, 'id-1')).toEqual({
      id: 'id-1',
      user: 'alice',
      email: 'x@y.io',
      mobile: '',
      areaCode: '86',
      roleId: ROLE,
      agentKeys: 'a,b',
      disabled: false,
    });
  });
});
