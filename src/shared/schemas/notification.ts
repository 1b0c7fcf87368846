import { z } from 'zod';

export const NOTICE_TYPES = ['domain', 'agent_updated', 'pool_check', 'temp_humid_warning'] as const;

/** Notification as the bell and the notice dialog use it (spec 1 §3, spec 2 §3). */
export interface Notification {
  id: string;
  type: string;
  title: string;
  content: string;
  summary: string | null;
  publishTime: string;
  isRead: boolean;
  agentKey: string | null;
}

export const NotificationPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(5),
});
export const NotificationReadBody = z.object({ id: z.string().uuid('validation.id') });

export const PageViewBody = z.object({
  path: z.string().min(1).max(500),
  locale: z.string().max(10).optional(),
  title: z.string().max(200).optional(),
  referrer: z.string().max(500).optional(),
});
