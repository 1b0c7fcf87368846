/** Server-side messages in the request's language (header I18N), from src/locales/<lang>/errors.json. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LOCALE, LOCALES, type Locale, normaliseLocale } from '@shared/validation';

type Tree = { [k: string]: string | Tree };
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const catalogues = new Map<Locale, Tree>(LOCALES.map((l) => [l, JSON.parse(readFileSync(path.join(root, l, 'errors.json'), 'utf8')) as Tree]));

function lookup(tree: Tree | undefined, key: string): string | undefined {
  let node: Tree | string | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function translate(locale: Locale, key: string, vars: Record<string, string | number> = {}): string {
  const raw = lookup(catalogues.get(locale), key) ?? lookup(catalogues.get(DEFAULT_LOCALE), key) ?? key;
  return raw.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
}

export function requestLocale(header: string | string[] | undefined, acceptLanguage?: string): Locale {
  const h = Array.isArray(header) ? header[0] : header;
  return normaliseLocale(h) ?? normaliseLocale(acceptLanguage?.split(',')[0]) ?? DEFAULT_LOCALE;
}
