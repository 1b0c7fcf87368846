import type { MultipartFile, MultipartResult } from './web-types';

/**
 * Streaming multipart/form-data parser: small fields are kept, file parts are only counted (first 512 bytes kept),
 * so firmware uploads of hundreds of MB cost no memory.
 */
export class MultipartParser {
  private readonly delimiter: Buffer;
  private buf: Buffer = Buffer.alloc(0);
  private state: 'preamble' | 'headers' | 'body' | 'done' = 'preamble';
  private current: { field: string; filename: string | null; size: number; chunks: Buffer[]; head: Buffer[] ; headLen: number } | null = null;
  readonly result: MultipartResult = { fields: {}, files: [] };

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    // the first boundary has no leading CRLF: pretend one was there
    this.buf = Buffer.from('\r\n');
  }

  static boundaryOf(contentType: string | undefined): string | null {
    if (!contentType || !/^multipart\/form-data/i.test(contentType)) return null;
    const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
    return m ? (m[1] ?? m[2] ?? null) : null;
  }

  write(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (this.state === 'done') {
        this.buf = Buffer.alloc(0);
        return;
      }
      if (this.state === 'preamble' || this.state === 'body') {
        const i = this.buf.indexOf(this.delimiter);
        if (i < 0) {
          // keep a tail that could hold the start of a delimiter
          const keep = this.delimiter.length;
          if (this.buf.length > keep) {
            this.consumeBody(this.buf.subarray(0, this.buf.length - keep));
            this.buf = Buffer.from(this.buf.subarray(this.buf.length - keep));
          }
          return;
        }
        this.consumeBody(this.buf.subarray(0, i));
        const after = this.buf.subarray(i + this.delimiter.length);
        if (after.length < 2) {
          // need the two bytes after the delimiter (`--` or CRLF); resume from the delimiter next time
          this.buf = Buffer.from(this.buf.subarray(i));
          return;
        }
        this.finishPart();
        if (after[0] === 0x2d && after[1] === 0x2d) {
          this.state = 'done';
          continue;
        }
        this.buf = Buffer.from(after.subarray(2));
        this.state = 'headers';
        continue;
      }
      // headers
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headerText = this.buf.subarray(0, end).toString('utf8');
      this.buf = Buffer.from(this.buf.subarray(end + 4));
      const disp = /content-disposition:[^\r\n]*/i.exec(headerText)?.[0] ?? '';
      const field = /\bname="([^"]*)"/i.exec(disp)?.[1] ?? '';
      const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1] ?? null;
      this.current = { field, filename, size: 0, chunks: [], head: [], headLen: 0 };
      this.state = 'body';
    }
  }

  private consumeBody(data: Buffer): void {
    const c = this.current;
    if (!c || data.length === 0) return;
    c.size += data.length;
    if (c.filename !== null) {
      if (c.headLen < 512) {
        const part = Buffer.from(data.subarray(0, 512 - c.headLen));
        c.head.push(part);
        c.headLen += part.length;
      }
    } else if (c.size <= 64 * 1024) {
      c.chunks.push(Buffer.from(data));
    }
  }

  private finishPart(): void {
    const c = this.current;
    if (!c) return;
    if (c.filename !== null) {
      const f: MultipartFile = { field: c.field, filename: c.filename, size: c.size, head: Buffer.concat(c.head) };
      this.result.files.push(f);
    } else {
      this.result.fields[c.field] = Buffer.concat(c.chunks).toString('utf8');
    }
    this.current = null;
  }
}
