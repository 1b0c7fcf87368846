import { z } from 'zod';

/** Paged list query (api-conventions.md): page is 1-based; pageSize default 50, dropdowns ask 1000. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page<T> {
  list: T[];
  total: number;
  curPage: number;
  pageSize: number;
}

export const AgentKeyQuery = z.object({ agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64) });

export interface Option {
  text: string;
  value: string;
}

/** Form bodies send numbers and booleans as strings (and a switch as on / off). */
export const boolish = z
  // a missing value is "required", not the union's "invalid value"
  .union([z.boolean(), z.enum(['0', '1', 'true', 'false', 'on', 'off']), z.literal(0), z.literal(1)], { error: (iss) => (iss.input === undefined ? 'validation.required' : undefined) })
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'on' || v === 1);

/** Comma-joined id lists on the wire ("1,2,3"); arrays accepted too. */
export const commaList = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))])
  .transform((v) => (Array.isArray(v) ? v.map(String) : v.split(',')).map((s) => s.trim()).filter((s) => s !== ''));
