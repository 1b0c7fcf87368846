import { z } from 'zod';
import { AREA_CODE_RE, EMAIL_RE, LIMITS, MOBILE_RE, USER_NAME_RE } from '../validation';
import { boolish, commaList } from './common';

const emptyToUndef = (v: unknown) => (v === '' || v === null ? undefined : v);

export const SaveUserBody = z.object({
  id: z.preprocess(emptyToUndef, z.string().uuid().optional()),
  user: z.string().trim().regex(USER_NAME_RE, 'validation.userName'),
  password: z.preprocess(emptyToUndef, z.string().min(LIMITS.passwordMin, 'validation.passwordMin').max(LIMITS.passwordMax).optional()),
  email: z.preprocess(emptyToUndef, z.string().trim().regex(EMAIL_RE, 'validation.email').optional()),
  mobile: z.preprocess(emptyToUndef, z.string().trim().regex(MOBILE_RE, 'validation.mobile').optional()),
  areaCode: z.preprocess(emptyToUndef, z.string().trim().regex(AREA_CODE_RE, 'validation.areaCode').default(LIMITS.defaultAreaCode)),
  roleId: z.preprocess(emptyToUndef, z.string().uuid('validation.roleRequired')),
  agentKeys: commaList.default([]),
  disabled: boolish.default(false),
});
export const IdBody = z.object({ id: z.string().uuid('validation.id') });

export const SaveRoleBody = z.object({
  id: z.preprocess(emptyToUndef, z.string().uuid().optional()),
  name: z.string().trim().min(1, 'validation.roleNameRequired').max(50, 'validation.roleNameMax'),
  remark: z.string().trim().max(200, 'validation.remarkMax').default(''),
  permissions: commaList
    .transform((a) => a.map(Number))
    .refine((a) => a.every((n) => Number.isInteger(n) && n > 0), 'validation.invalid'),
});

export const UserListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
  keyword: z.string().trim().max(64).default(''),
});

export interface UserRow {
  id: string;
  user: string;
  email: string | null;
  mobile: string | null;
  areaCode: string;
  isAdmin: boolean;
  roleId: string | null;
  roleName: string | null;
  agentKeys: string[];
  disabled: boolean;
  createdAt: string;
  lastLoginAt: string | null;
}

export interface RoleRow {
  id: string;
  name: string;
  remark: string;
  permissions: number[];
  builtin: boolean;
  userCount: number;
  createdAt: string;
}

/** GET /api/role/userAgentMenus answer. */
export interface UserMenus {
  menus: import('../menu-catalogue').MenuNode[];
  permissions: number[];
  selfMiners: boolean;
}
