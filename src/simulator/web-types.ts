import type { IncomingHttpHeaders } from 'node:http';

/** A parsed HTTP request as device handlers see it. */
export interface WebRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** set for multipart/form-data bodies (parsed while streaming; file content is counted, not kept) */
  upload?: MultipartResult;
}

export interface MultipartFile { field: string; filename: string; size: number; head: Buffer }
export interface MultipartResult { fields: Record<string, string>; files: MultipartFile[] }

/** What a device answers; `after` runs once the response is flushed (reboot, process restart …). */
export interface WebReply {
  status: number;
  headers?: Record<string, string>;
  body: string | Buffer;
  after?: () => void;
}

export function jsonReply(body: unknown, status = 200, headers: Record<string, string> = {}): WebReply {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function textReply(body: string, status = 200, contentType = 'text/plain', headers: Record<string, string> = {}): WebReply {
  return { status, headers: { 'Content-Type': contentType, ...headers }, body };
}

export function parseJsonBody(body: Buffer): Record<string, unknown> | null {
  const text = body.toString('utf8').trim();
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    // old-generation firmware posts form-encoded bodies
    if (text.includes('=')) return Object.fromEntries(new URLSearchParams(text));
    return null;
  }
}
