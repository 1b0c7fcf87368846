import type { NetQuirk } from './sim-types';

/**
 * Corrupt a JSON reply the way real firmware does (miner-protocols.md §10.2). Each output is NOT valid JSON
 * (except 'none'/'slow'/'reset', which do not touch the text), and each is repairable by pyasic's fix-ups.
 */
export function applyJsonQuirk(json: string, quirk: NetQuirk): string {
  switch (quirk) {
    case 'trailing-comma': {
      // `,}` — btminer: a trailing comma before the first closing brace
      const i = json.indexOf('}');
      return i < 0 ? `${json},` : `${json.slice(0, i)},${json.slice(i)}`;
    }
    case 'raw-newline': {
      // raw newline characters inside a string value (control characters are illegal in JSON strings)
      const i = json.indexOf('":"');
      return i < 0 ? `${json.slice(0, 1)}\n${json.slice(1, -1)}\n"${json.slice(-1)}` : `${json.slice(0, i + 3)}\n${json.slice(i + 3)}`.replace(/,"/, ',\n"');
    }
    case 'concatenated-objects': {
      // `}{` between objects (bmminer multi-command / stats)
      const i = json.indexOf('},{');
      if (i >= 0) return `${json.slice(0, i)}}{${json.slice(i + 3)}`;
      const j = json.indexOf('],"');
      return j < 0 ? `${json}{"id":1}` : `${json.slice(0, j + 1)}}{${json.slice(j + 2)}`;
    }
    case 'missing-comma': {
      // `""temp0`-style: the comma between two string members is missing
      const i = json.indexOf('","');
      if (i >= 0) return `${json.slice(0, i + 1)}${json.slice(i + 2)}`;
      const j = json.indexOf(',"');
      return j < 0 ? json.replace('{', '{""') : `${json.slice(0, j)}${json.slice(j + 1)}`;
    }
    case 'inf-nan': {
      // bare inf / nan tokens as numeric values (Avalon)
      let n = 0;
      const out = json.replace(/":(-?\d+\.\d+)(?=[,}])/g, (m) => (n++ < 2 ? `":${n === 1 ? 'inf' : 'nan'}` : m));
      return n > 0 ? out : json.replace(/":(-?\d+)(?=[,}])/, '":nan');
    }
    case 'truncated': {
      // output cut off mid-way (does not end in `}`)
      const cut = Math.max(8, Math.floor(json.length * 0.6));
      const s = json.slice(0, cut);
      return s.endsWith('}') ? s.slice(0, -1) : s;
    }
    case 'leading-comma':
      return `,${json.slice(1)}`;
    case 'bracket-comma': {
      const i = json.indexOf('[{');
      return i < 0 ? json.replace('[', '[,') : `${json.slice(0, i + 1)},${json.slice(i + 1)}`;
    }
    case 'error-code-brackets': {
      // Whatsminer API 2.0.4: "error_code":["110":"…"] — list written with dict content
      const m = /"error_code":\[(.*?)\]/.exec(json);
      if (!m) return json;
      const inner = (m[1] ?? '').replace(/[{}]/g, '');
      return json.replace(m[0], `"error_code":[${inner || '"0":""'}]`);
    }
    default:
      return json;
  }
}

/** True when the quirk corrupts JSON text (as opposed to timing/connection quirks). */
export function isJsonQuirk(q: NetQuirk): boolean {
  return q !== 'none' && q !== 'slow' && q !== 'reset';
}
