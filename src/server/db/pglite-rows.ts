/**
 * Rows of a PREPARED statement's run on PGlite, read straight from the backend's protocol bytes.
 *
 * PGlite's execProtocol() parses every output chunk into message objects as it arrives, copying each field into an
 * ArrayBuffer of its own (`slice`) before decoding it, and parseResults() then walks those objects again. For the list
 * page's statement (50 rows, ~75 KB) that was ~0.6 ms of the ~2.5 ms a page costs on the one thread PGlite shares
 * with the server (CPU profile of tests/bench/miner-list.bench.ts). Here the output is taken as raw bytes
 * (execProtocolRawStream, which bypasses that parser), and one pass decodes each text field from a view of them.
 *
 * The extended protocol's replies to Bind / Describe portal / Execute / Sync (PostgreSQL docs, "Message Formats"):
 * BindComplete, RowDescription or NoData, DataRow…, CommandComplete, ReadyForQuery; an ErrorResponse instead of the
 * rest when the statement fails (thrown here with the fields PGlite's own error carries). Values are text format and
 * go through the database's parsers by type OID, as PGlite's query() does; a type without a parser stays text.
 */

type Parsers = Record<number, ((value: string, typeId: number) => unknown) | undefined>;

const decoder = new TextDecoder();

/** An ErrorResponse as an Error with PostgreSQL's fields (code, severity, detail, hint, position …), as PGlite raises it. */
export class PgliteRowsError extends Error {
  code?: string;
  severity?: string;
  detail?: string;
  hint?: string;
  position?: string;
  schema?: string;
  table?: string;
  column?: string;
  constraint?: string;
}

const ERROR_FIELDS: Record<string, keyof PgliteRowsError> = {
  C: 'code',
  S: 'severity',
  D: 'detail',
  H: 'hint',
  P: 'position',
  s: 'schema',
  t: 'table',
  c: 'column',
  n: 'constraint',
};

function errorOf(bytes: Uint8Array, start: number, end: number): PgliteRowsError {
  const fields = new Map<string, string>();
  let i = start;
  while (i < end && bytes[i] !== 0) {
    const key = String.fromCharCode(bytes[i]!);
    let j = i + 1;
    while (j < end && bytes[j] !== 0) j++;
    fields.set(key, decoder.decode(bytes.subarray(i + 1, j)));
    i = j + 1;
  }
  const err = new PgliteRowsError(fields.get('M') ?? 'database error');
  for (const [key, name] of Object.entries(ERROR_FIELDS)) {
    const v = fields.get(key);
    if (v !== undefined) (err as unknown as Record<string, string>)[name] = v;
  }
  return err;
}

/** The rows (objects keyed by column name) in the backend output `bytes`; throws the statement's error if it failed. */
export function parseRows<R>(bytes: Uint8Array, parsers: Parsers): R[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows: R[] = [];
  let names: string[] = [];
  let types: number[] = [];
  let error: PgliteRowsError | null = null;
  let at = 0;
  while (at + 5 <= bytes.length) {
    const kind = bytes[at]!;
    const length = view.getInt32(at + 1); // counts itself, not the kind byte
    const start = at + 5;
    const end = at + 1 + length;
    if (length < 4 || end > bytes.length) throw new Error('PGlite: truncated protocol message');
    if (kind === 0x44 /* D: DataRow */) {
      const n = view.getInt16(start);
      const row: Record<string, unknown> = {};
      let p = start + 2;
      for (let f = 0; f < n; f++) {
        const size = view.getInt32(p);
        p += 4;
        if (size < 0) {
          row[names[f]!] = null;
          continue;
        }
        const text = decoder.decode(bytes.subarray(p, p + size));
        p += size;
        const parse = parsers[types[f]!];
        row[names[f]!] = parse ? parse(text, types[f]!) : text;
      }
      rows.push(row as R);
    } else if (kind === 0x54 /* T: RowDescription */) {
      const n = view.getInt16(start);
      names = new Array<string>(n);
      types = new Array<number>(n);
      let p = start + 2;
      for (let f = 0; f < n; f++) {
        let z = p;
        while (bytes[z] !== 0) z++;
        names[f] = decoder.decode(bytes.subarray(p, z));
        p = z + 1;
        types[f] = view.getInt32(p + 6); // after the table OID (4) and the column number (2)
        p += 18; // table OID 4, column 2, type OID 4, type size 2, type modifier 4, format 2
      }
    } else if (kind === 0x45 /* E: ErrorResponse */ && error === null) {
      error = errorOf(bytes, start, end);
    }
    at = end;
  }
  if (error) throw error;
  return rows;
}
