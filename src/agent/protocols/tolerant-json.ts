/**
 * Tolerant JSON parsing for miner replies (miner-protocols.md §10.2). Never throws.
 * Valid JSON is parsed as is; only when JSON.parse fails are the field-observed defects repaired,
 * one after another, re-trying after each step:
 * trailing NULs, raw newlines, `,}` / `,]`, `}{` between objects, `[,{`, missing comma before a key
 * (`""temp0`), bare inf/nan, a leading `,`, Whatsminer `"error_code":[ "k":"v" ]` dict-in-list, and
 * truncated output (cut at the last complete member and close every open bracket).
 */

export type TolerantParse =
  | { ok: true; value: unknown; repairs: string[] }
  | { ok: false; error: string; repairs: string[] };

function tryParse(s: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(s) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Strips NUL bytes and whitespace at both ends. */
export function stripNul(s: string): string {
  let end = s.length;
  while (end > 0) {
    const c = s.charCodeAt(end - 1);
    if (c === 0 || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) end--;
    else break;
  }
  let start = 0;
  while (start < end) {
    const c = s.charCodeAt(start);
    if (c === 0 || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) start++;
    else break;
  }
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/**
 * Closes a truncated JSON document: walks it tracking strings and the bracket stack, cuts back to the
 * last position where a member/element was complete, drops a dangling key, and appends the closers.
 */
export function closeTruncated(s: string): string {
  const stack: string[] = [];
  let inStr = false;
  let esc = false;
  // last "safe" cut: index just after a complete value, with the stack at that moment
  let safeIdx = -1;
  let safeStack: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (inStr) {
      if (esc) esc = false;
      else if (ch === '\\') esc = true;
      else if (ch === '"') inStr = false;
      continue;
    }
    if (ch === '"') inStr = true;
    else if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      stack.pop();
      safeIdx = i + 1;
      safeStack = stack.slice();
    } else if (ch === ',') {
      safeIdx = i; // everything before this comma is complete
      safeStack = stack.slice();
    }
  }
  if (!inStr && stack.length === 0) return s;
  if (safeIdx < 0) return s;
  let out = s.slice(0, safeIdx).replace(/[,\s]+$/, '');
  // a dangling `"key":` or `"key"` at the end of an object
  out = out.replace(/,?\s*"(?:[^"\\]|\\.)*"\s*:?\s*$/, (m) => (/:\s*$/.test(m) || safeStack[safeStack.length - 1] === '}' ? '' : m));
  return out + safeStack.slice().reverse().join('');
}

interface Repair {
  name: string;
  apply: (s: string) => string;
}

const REPAIRS: Repair[] = [
  { name: 'newlines', apply: (s) => s.replace(/[\r\n]+/g, '') },
  { name: 'nul-inside', apply: (s) => s.split('\u0000').join('') },
  { name: 'leading-comma', apply: (s) => (s.startsWith(',') ? '{' + s.slice(1) : s) },
  { name: 'trailing-comma', apply: (s) => s.replace(/,\s*([}\]])/g, '$1') },
  { name: 'object-juxtaposition', apply: (s) => s.replace(/}\s*{/g, '},{') },
  { name: 'leading-comma-in-array', apply: (s) => s.replace(/\[\s*,\s*([{"\d\-tfn[])/g, '[$1') },
  { name: 'missing-comma-before-key', apply: (s) => s.replace(/"(?="[A-Za-z_][^"\\]{0,80}"\s*:)/g, '",') },
  {
    name: 'missing-comma-after-value',
    apply: (s) => s.replace(/(\d|\btrue|\bfalse|\bnull|[}\]])(\s*)(?="[A-Za-z_][^"\\]{0,80}"\s*:)/g, '$1,$2'),
  },
  { name: 'inf-nan', apply: (s) => s.replace(/"(?:-?inf|-?nan|-?Infinity|NaN)"|(?<=[:,[]\s*)(?:-?inf|-?nan|-?Infinity|NaN)(?=\s*[,}\]])/gi, '0') },
  {
    name: 'error-code-dict-list',
    apply: (s) => s.replace(/("error_code"\s*:\s*)\[([^[\]]*)\]/g, (m, p: string, body: string) => (/"\s*:/.test(body) ? `${p}{${body}}` : m)),
  },
  { name: 'top-level-sequence', apply: (s) => mergeTopLevel(s) },
  { name: 'truncated', apply: (s) => closeTruncated(s) },
  // after closing, earlier fixes may be needed again (e.g. a trailing comma exposed by the cut)
  { name: 'trailing-comma-2', apply: (s) => s.replace(/,\s*([}\]])/g, '$1') },
];

/**
 * `{…},{…}` or `{…}{…}` at top level (bmminer writing `}{` between sections): parse as a sequence
 * and merge the objects into one. Returns the input unchanged when that does not help.
 */
function mergeTopLevel(s: string): string {
  if (!s.startsWith('{')) return s;
  const seq = s.replace(/}\s*{/g, '},{');
  try {
    const arr = JSON.parse(`[${seq}]`) as unknown;
    if (Array.isArray(arr) && arr.length > 1 && arr.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
      return JSON.stringify(Object.assign({}, ...(arr as object[])));
    }
  } catch {
    // not a sequence
  }
  return s;
}

/** Parses a miner reply, repairing known defects. Never throws. */
export function parseTolerantJson(raw: string): TolerantParse {
  const repairs: string[] = [];
  let s = stripNul(raw);
  if (s.length === 0) return { ok: false, error: 'empty reply', repairs };
  let r = tryParse(s);
  if (r.ok) return { ok: true, value: r.value, repairs };
  let lastError = r.error;
  for (const rep of REPAIRS) {
    let next: string;
    try {
      next = rep.apply(s);
    } catch {
      continue;
    }
    if (next === s) continue;
    s = next;
    repairs.push(rep.name);
    r = tryParse(s);
    if (r.ok) return { ok: true, value: r.value, repairs };
    lastError = r.error;
  }
  return { ok: false, error: lastError, repairs };
}

/**
 * Parses the cgminer plain-text reply format: sections separated by `|`, fields `Name=Value` separated
 * by `,`, escapes `\|` `\,` `\=` `\\`. The first token of a section without `=` is its name
 * (STATUS's first token is `STATUS=S`). Returns `{STATUS:[{…}], SUMMARY:[{…}], …}` like the JSON form.
 */
export function parseCgminerText(raw: string): Record<string, Record<string, string | number>[]> | null {
  const s = stripNul(raw);
  if (!s.startsWith('STATUS=')) return null;
  const out: Record<string, Record<string, string | number>[]> = {};
  const split = (str: string, sep: string): string[] => {
    const parts: string[] = [];
    let cur = '';
    for (let i = 0; i < str.length; i++) {
      const ch = str[i] as string;
      if (ch === '\\' && i + 1 < str.length) {
        cur += ch + (str[i + 1] as string);
        i++;
      } else if (ch === sep) {
        parts.push(cur);
        cur = '';
      } else cur += ch;
    }
    parts.push(cur);
    return parts;
  };
  const unescape = (v: string) => v.replace(/\\(.)/g, '$1');
  for (const section of split(s, '|')) {
    if (!section) continue;
    const fields = split(section, ',');
    let name = 'STATUS';
    const obj: Record<string, string | number> = {};
    fields.forEach((f, idx) => {
      const eq = f.search(/(?<!\\)=/);
      if (eq < 0) {
        if (idx === 0) name = unescape(f);
        return;
      }
      const k = unescape(f.slice(0, eq));
      const vRaw = unescape(f.slice(eq + 1));
      const n = Number(vRaw);
      obj[k] = vRaw !== '' && Number.isFinite(n) && /^-?[\d.]+(e[+-]?\d+)?$/i.test(vRaw) ? n : vRaw;
    });
    if (idx0IsStatus(fields[0])) name = 'STATUS';
    (out[name] ??= []).push(obj);
  }
  return out;
}

function idx0IsStatus(f: string | undefined): boolean {
  return !!f && f.startsWith('STATUS=');
}
