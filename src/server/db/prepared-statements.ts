/**
 * Statements prepared once and run again by name (the hottest reads: the miner list). A statement opts in by starting
 * its text with PREPARED.
 * - PostgreSQL (kysely.ts): node-postgres runs it as a named statement per connection; parsed once, and planned once
 *   when PostgreSQL finds its generic plan as good.
 * - PGlite (pglite-dialect.ts): PGlite's own query() makes six protocol calls into WebAssembly per statement (parse,
 *   describe, bind, describe, execute, sync) and parses and plans the text every time; a list page statement cost
 *   4.5–5.6 ms there, ~1 ms of it planning and ~2.5 ms the calls around it. A prepared statement is one call per run:
 *   bind, describe, execute and sync in one message.
 */
export const PREPARED = '/* prepared */ ';
/** Named statements per connection at most (each holds a plan in its backend); later ones run unnamed. */
export const PREPARED_MAX = 256;

const encoder = new TextEncoder();

/** Frontend protocol messages (PostgreSQL docs, "Message Formats"), for PGlite's execProtocol. */
class MessageWriter {
  private parts: Uint8Array[] = [];
  private size = 0;
  private current: number[] = [];
  private body: Uint8Array[] = [];
  private bodySize = 0;

  private flushBytes(): void {
    if (this.current.length === 0) return;
    const b = Uint8Array.from(this.current);
    this.body.push(b);
    this.bodySize += b.length;
    this.current = [];
  }
  byte(c: string): this {
    this.current.push(c.charCodeAt(0));
    return this;
  }
  int16(v: number): this {
    this.current.push((v >> 8) & 0xff, v & 0xff);
    return this;
  }
  int32(v: number): this {
    this.current.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
    return this;
  }
  bytes(b: Uint8Array): this {
    this.flushBytes();
    this.body.push(b);
    this.bodySize += b.length;
    return this;
  }
  cstring(s: string): this {
    this.bytes(encoder.encode(s));
    this.current.push(0);
    return this;
  }
  /** Ends the message of this type code. */
  message(code: string): this {
    this.flushBytes();
    const head = new Uint8Array(5);
    head[0] = code.charCodeAt(0);
    new DataView(head.buffer).setInt32(1, this.bodySize + 4);
    this.parts.push(head, ...this.body);
    this.size += 5 + this.bodySize;
    this.body = [];
    this.bodySize = 0;
    return this;
  }
  done(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** Parse (named), Describe statement, Sync: the answer tells the parameters' types. */
export function prepareMessage(name: string, text: string): Uint8Array {
  return new MessageWriter().cstring(name).cstring(text).int16(0).message('P').byte('S').cstring(name).message('D').message('S').done();
}

/** Bind (unnamed portal, text values), Describe portal, Execute, Sync. `values`: text, or null for NULL. */
export function runMessage(name: string, values: readonly (string | null)[]): Uint8Array {
  const w = new MessageWriter().cstring('').cstring(name).int16(0).int16(values.length);
  for (const v of values) {
    if (v === null) w.int32(-1);
    else {
      const b = encoder.encode(v);
      w.int32(b.length).bytes(b);
    }
  }
  return w.int16(0).message('B').byte('P').cstring('').message('D').cstring('').int32(0).message('E').message('S').done();
}
