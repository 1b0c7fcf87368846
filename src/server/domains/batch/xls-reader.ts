/**
 * Reads the first worksheet of a legacy Excel file (.xls: BIFF8 records in an OLE2 compound file, what Excel 97–2003,
 * WPS and many farm tools still save) as rows of cell text. It reads what an IP list needs — the text, numbers,
 * formula results and booleans of the first columns — not formatting, dates or other sheets.
 *
 * Compound file (MS-CFB): a FAT of sector chains (its sectors listed in the header and the DIFAT chain), a directory
 * of named streams, and a mini stream (64-byte sectors, its own mini FAT) for streams under the cutoff (4,096 bytes).
 * The workbook is the stream "Workbook". BIFF8 (MS-XLS): records of type, length and data; the globals hold the
 * shared strings (SST, continued over CONTINUE records, where a string's characters may resume with a new
 * compressed/UTF-16 flag) and the sheets' offsets (BOUNDSHEET); the sheet's cells are LABELSST, LABEL, NUMBER, RK,
 * MULRK, FORMULA (+ STRING) and BOOLERR records.
 *
 * Anything malformed, encrypted (FILEPASS), or older than BIFF8 (a "Book" stream) throws XlsFormatError. Every read is
 * bounds-checked and every chain walk is bounded by the number of sectors, so a crafted file cannot loop or read
 * outside the upload.
 */

export class XlsFormatError extends Error {}

const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const END_OF_CHAIN = 0xfffffffe;
const FREE_SECT = 0xffffffff;
const HEADER_DIFAT_ENTRIES = 109;

/** Whether the bytes start as a compound file (an .xls, or another OLE2 document). */
export const isCompoundFile = (b: Buffer): boolean => b.length >= 512 && b.subarray(0, 8).equals(CFB_SIGNATURE);

function fail(what: string): never {
  throw new XlsFormatError(what);
}

function u32(b: Buffer, at: number): number {
  if (at < 0 || at + 4 > b.length) fail('read past the end');
  return b.readUInt32LE(at);
}

function u16(b: Buffer, at: number): number {
  if (at < 0 || at + 2 > b.length) fail('read past the end');
  return b.readUInt16LE(at);
}

/** The streams of a compound file, by name. */
function compoundStreams(buf: Buffer): Map<string, Buffer> {
  if (!isCompoundFile(buf)) fail('not a compound file');
  const sectorShift = u16(buf, 0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) fail('sector size');
  const sectorSize = 1 << sectorShift;
  const miniSectorSize = 1 << u16(buf, 0x20);
  if (miniSectorSize !== 64) fail('mini sector size');
  const fatSectorCount = u32(buf, 0x2c);
  const sectorCount = Math.ceil((buf.length - sectorSize) / sectorSize);
  const sector = (n: number): Buffer => {
    if (n >= sectorCount) fail('sector out of range');
    const at = (n + 1) * sectorSize;
    return buf.subarray(at, Math.min(at + sectorSize, buf.length));
  };

  // The FAT's sectors: 109 in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < HEADER_DIFAT_ENTRIES && fatSectors.length < fatSectorCount; i++) {
    const s = u32(buf, 0x4c + i * 4);
    if (s === FREE_SECT) break;
    fatSectors.push(s);
  }
  let difat = u32(buf, 0x44);
  for (let guard = 0; fatSectors.length < fatSectorCount && difat !== END_OF_CHAIN && difat !== FREE_SECT; guard++) {
    if (guard > sectorCount) fail('DIFAT loop');
    const d = sector(difat);
    const per = sectorSize / 4 - 1;
    for (let i = 0; i < per && fatSectors.length < fatSectorCount; i++) {
      const s = u32(d, i * 4);
      if (s !== FREE_SECT) fatSectors.push(s);
    }
    difat = u32(d, per * 4);
  }
  const fat: number[] = [];
  for (const s of fatSectors) {
    const f = sector(s);
    for (let i = 0; i + 4 <= f.length; i += 4) fat.push(f.readUInt32LE(i));
  }

  const chain = (start: number, table: number[], limit: number): number[] => {
    const out: number[] = [];
    for (let s = start; s !== END_OF_CHAIN; ) {
      if (s >= table.length || out.length > limit) fail('broken chain');
      out.push(s);
      s = table[s]!;
    }
    return out;
  };
  const readChain = (start: number, size?: number): Buffer => {
    const parts = chain(start, fat, sectorCount).map(sector);
    const all = Buffer.concat(parts);
    return size === undefined ? all : size <= all.length ? all.subarray(0, size) : fail('stream shorter than its size');
  };

  // The directory: 128-byte entries; entry 0 is the root, whose stream is the mini stream.
  const dir = readChain(u32(buf, 0x30));
  const entries: { name: string; type: number; start: number; size: number }[] = [];
  for (let at = 0; at + 128 <= dir.length; at += 128) {
    const nameLen = u16(dir, at + 0x40);
    const type = dir[at + 0x42]!;
    if (type === 0) continue; // unused entry
    const name = dir.toString('utf16le', at, at + Math.max(0, Math.min(64, nameLen) - 2));
    entries.push({ name, type, start: u32(dir, at + 0x74), size: u32(dir, at + 0x78) });
  }
  const root = entries.find((e) => e.type === 5) ?? fail('no root entry');
  const cutoff = u32(buf, 0x38);
  const miniStream = root.size > 0 ? readChain(root.start, root.size) : Buffer.alloc(0);
  const miniFatStart = u32(buf, 0x3c);
  const miniFat: number[] = [];
  if (miniFatStart !== END_OF_CHAIN && miniFatStart !== FREE_SECT) {
    const m = readChain(miniFatStart);
    for (let i = 0; i + 4 <= m.length; i += 4) miniFat.push(m.readUInt32LE(i));
  }
  const readMini = (start: number, size: number): Buffer => {
    const parts = chain(start, miniFat, miniFat.length).map((n) => {
      const at = n * miniSectorSize;
      if (at + miniSectorSize > miniStream.length) fail('mini sector out of range');
      return miniStream.subarray(at, at + miniSectorSize);
    });
    const all = Buffer.concat(parts);
    return size <= all.length ? all.subarray(0, size) : fail('stream shorter than its size');
  };

  const streams = new Map<string, Buffer>();
  for (const e of entries) {
    if (e.type !== 2) continue;
    streams.set(e.name, e.size < cutoff ? readMini(e.start, e.size) : readChain(e.start, e.size));
  }
  return streams;
}

interface BiffRecord {
  type: number;
  data: Buffer;
}

function* records(stream: Buffer, from: number): Generator<BiffRecord> {
  for (let at = from; at + 4 <= stream.length; ) {
    const type = stream.readUInt16LE(at);
    const len = stream.readUInt16LE(at + 2);
    if (at + 4 + len > stream.length) fail('record past the end');
    yield { type, data: stream.subarray(at + 4, at + 4 + len) };
    at += 4 + len;
  }
}

const R = {
  BOF: 0x0809,
  EOF: 0x000a,
  FILEPASS: 0x002f,
  BOUNDSHEET: 0x0085,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  RSTRING: 0x00d6,
  NUMBER: 0x0203,
  RK: 0x027e,
  MULRK: 0x00bd,
  FORMULA: 0x0006,
  STRING: 0x0207,
  BOOLERR: 0x0205,
} as const;

/** Reads across a record and its CONTINUE records (the SST). */
class Segments {
  private i = 0;
  private pos = 0;
  constructor(private readonly parts: Buffer[]) {}

  private current(): Buffer {
    while (this.i < this.parts.length && this.pos >= this.parts[this.i]!.length) {
      this.i++;
      this.pos = 0;
    }
    return this.parts[this.i] ?? fail('string table past its end');
  }

  u8(): number {
    const b = this.current();
    return b[this.pos++]!;
  }

  u16(): number {
    return this.u8() | (this.u8() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  skip(n: number): void {
    for (let left = n; left > 0; ) {
      const b = this.current();
      const take = Math.min(left, b.length - this.pos);
      this.pos += take;
      left -= take;
    }
  }

  /** `count` characters, 1 or 2 bytes each; a CONTINUE in between starts with the flag of the rest. */
  chars(count: number, wide: boolean): string {
    let out = '';
    for (let left = count; left > 0; ) {
      const b = this.current();
      const width = wide ? 2 : 1;
      const take = Math.min(left, Math.floor((b.length - this.pos) / width));
      if (take === 0) fail('split character');
      out += wide ? b.toString('utf16le', this.pos, this.pos + take * 2) : b.toString('latin1', this.pos, this.pos + take);
      this.pos += take * width;
      left -= take;
      if (left > 0) {
        // The characters go on in the next CONTINUE record, which starts with their flags.
        if (this.pos < b.length) fail('string cut inside a record');
        this.i++;
        this.pos = 0;
        wide = (this.u8() & 0x01) !== 0;
      }
    }
    return out;
  }

  /** An XLUnicodeRichExtendedString (MS-XLS 2.5.293). */
  richString(): string {
    const cch = this.u16();
    const flags = this.u8();
    const runs = flags & 0x08 ? this.u16() : 0;
    const ext = flags & 0x04 ? this.u32() : 0;
    const text = this.chars(cch, (flags & 0x01) !== 0);
    this.skip(runs * 4 + ext);
    return text;
  }
}

/** A string with a 16-bit length and its flags (LABEL, STRING; MS-XLS XLUnicodeString). */
function unicodeString(d: Buffer, at: number): string {
  const cch = u16(d, at);
  const flags = d[at + 2] ?? fail('string flags');
  const wide = (flags & 0x01) !== 0;
  const rich = flags & 0x08 ? 2 : 0;
  const ext = flags & 0x04 ? 4 : 0;
  const start = at + 3 + rich + ext;
  const end = start + cch * (wide ? 2 : 1);
  if (end > d.length) fail('string past its record');
  return wide ? d.toString('utf16le', start, end) : d.toString('latin1', start, end);
}

/** An RK number (MS-XLS 2.5.217): a 30-bit integer or the top of a double, maybe divided by 100. */
function rkNumber(rk: number): number {
  const div100 = (rk & 0x01) !== 0;
  let n: number;
  if (rk & 0x02) n = rk >> 2;
  else {
    const b = Buffer.alloc(8);
    b.writeUInt32LE((rk & 0xfffffffc) >>> 0, 4);
    n = b.readDoubleLE(0);
  }
  return div100 ? n / 100 : n;
}

const numberText = (n: number): string => (Number.isFinite(n) ? String(Number.isInteger(n) ? n : Number(n.toPrecision(15))) : '');

/**
 * The first worksheet's cells in columns 0 … columns-1, as text: row number (0-based) → cells. Numbers as Excel shows
 * them in the General format (integers without a decimal point), booleans as TRUE / FALSE.
 */
export function readXlsRows(buf: Buffer, columns = 3): Map<number, string[]> {
  const streams = compoundStreams(buf);
  const wb = streams.get('Workbook') ?? (streams.has('Book') ? fail('BIFF5 or older') : fail('no workbook stream'));

  // Globals: the shared strings and the first worksheet's offset.
  const sstParts: Buffer[] = [];
  let inSst = false;
  const sheets: { at: number; visible: boolean }[] = [];
  let first = true;
  for (const r of records(wb, 0)) {
    if (first) {
      if (r.type !== R.BOF || u16(r.data, 0) !== 0x0600) fail('not BIFF8');
      first = false;
      continue;
    }
    if (r.type === R.EOF) break;
    if (r.type === R.FILEPASS) fail('encrypted');
    if (r.type === R.SST) {
      sstParts.push(r.data);
      inSst = true;
      continue;
    }
    if (r.type === R.CONTINUE && inSst) {
      sstParts.push(r.data);
      continue;
    }
    inSst = false;
    if (r.type === R.BOUNDSHEET && (r.data[5] ?? 0xff) === 0) sheets.push({ at: u32(r.data, 0), visible: ((r.data[4] ?? 0) & 0x03) === 0 });
  }
  const sheet = sheets.find((s) => s.visible) ?? sheets[0] ?? fail('no worksheet');

  const sst: string[] = [];
  if (sstParts.length > 0) {
    const seg = new Segments(sstParts);
    seg.u32(); // total references
    const unique = seg.u32();
    for (let i = 0; i < unique; i++) sst.push(seg.richString());
  }

  const rows = new Map<number, string[]>();
  const put = (row: number, col: number, text: string) => {
    if (col >= columns) return;
    let cells = rows.get(row);
    if (!cells) rows.set(row, (cells = Array.from({ length: columns }, () => '')));
    cells[col] = text.trim();
  };
  let pendingFormula: { row: number; col: number } | null = null;
  let sheetFirst = true;
  for (const r of records(wb, sheet.at)) {
    const d = r.data;
    if (sheetFirst) {
      if (r.type !== R.BOF) fail('worksheet without BOF');
      sheetFirst = false;
      continue;
    }
    if (r.type === R.EOF) break;
    switch (r.type) {
      case R.LABELSST: {
        const s = sst[u32(d, 6)];
        if (s === undefined) fail('shared string out of range');
        put(u16(d, 0), u16(d, 2), s);
        break;
      }
      case R.LABEL:
      case R.RSTRING:
        put(u16(d, 0), u16(d, 2), unicodeString(d, 6));
        break;
      case R.NUMBER:
        if (d.length < 14) fail('short NUMBER');
        put(u16(d, 0), u16(d, 2), numberText(d.readDoubleLE(6)));
        break;
      case R.RK:
        put(u16(d, 0), u16(d, 2), numberText(rkNumber(u32(d, 6))));
        break;
      case R.MULRK: {
        const row = u16(d, 0);
        const firstCol = u16(d, 2);
        const n = Math.floor((d.length - 6) / 6);
        for (let i = 0; i < n; i++) put(row, firstCol + i, numberText(rkNumber(u32(d, 4 + i * 6 + 2))));
        break;
      }
      case R.FORMULA: {
        if (d.length < 14) fail('short FORMULA');
        const row = u16(d, 0);
        const col = u16(d, 2);
        if (u16(d, 12) !== 0xffff) put(row, col, numberText(d.readDoubleLE(6)));
        else if (d[6] === 0) pendingFormula = { row, col }; // the text follows in a STRING record
        else if (d[6] === 1) put(row, col, d[8] ? 'TRUE' : 'FALSE');
        break;
      }
      case R.STRING:
        if (pendingFormula) put(pendingFormula.row, pendingFormula.col, unicodeString(d, 0));
        pendingFormula = null;
        break;
      case R.BOOLERR:
        if (d.length >= 8 && d[7] === 0) put(u16(d, 0), u16(d, 2), d[6] ? 'TRUE' : 'FALSE');
        break;
      default:
        break;
    }
  }
  return rows;
}
