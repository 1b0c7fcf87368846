import zlib from 'node:zlib';

/**
 * A cycle's snapshots for the spool, already gzip'd: `parts` are gzip members of comma-joined snapshot JSON texts
 * (each part the snapshots of one poll thread, in IP order; an empty share has no part). The spool wraps them in the
 * batch's head and tail (packedBatch). Poll threads gzip their own share (sharded-poller.ts): the texts of a worker's
 * share never reach the main thread, and the shares are compressed at the same time.
 */
export interface PackedSnapshots {
  parts: Buffer[];
  /** Snapshots in all parts. */
  count: number;
}

/** The snapshots' texts as one part of PackedSnapshots (gzip of `texts.join(',')`, in members). */
export function packTexts(texts: readonly string[]): PackedSnapshots {
  return { parts: texts.length ? [gzipJoined('', texts, '')] : [], count: texts.length };
}

/** gzip of `head + (the parts' texts, comma-joined) + tail`: the packed parts between two small members of their own. */
export function packedBatch(head: string, packed: PackedSnapshots, tail: string): Buffer {
  const members: Buffer[] = [zlib.gzipSync(head)];
  packed.parts.forEach((part, i) => {
    if (i > 0) members.push(COMMA);
    members.push(part);
  });
  members.push(zlib.gzipSync(tail));
  return Buffer.concat(members);
}

const COMMA = zlib.gzipSync(',');

/** Snapshots per gzip member in gzipJoined (≈ 1.5 MB of JSON). */
const GZIP_PART = 1000;

/**
 * gzip of `head + parts.join(',') + tail`, without ever holding that text: one gzip member per GZIP_PART parts,
 * concatenated (RFC 1952 §2.2; every gunzip — zlib's, Node's streams, the server's — reads them as one stream).
 * At 20,000 snapshots this keeps ~60 MB (the joined text and its UTF-8 copy) out of the agent's peak RSS. Each
 * member's UTF-8 bytes are written straight into one scratch buffer reused across calls (no joined string and no
 * Buffer copy of it per member: ~3 KB less garbage per snapshot, in the large-object space).
 */
export function gzipJoined(head: string, parts: readonly string[], tail: string): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; i === 0 || i < parts.length; i += GZIP_PART) {
    const end = Math.min(parts.length, i + GZIP_PART);
    let n = 0;
    const put = (text: string): void => {
      // UTF-8 needs at most 3 bytes per UTF-16 unit
      if (n + text.length * 3 > scratch.length) {
        const grown = Buffer.allocUnsafe(Math.max(scratch.length * 2, n + text.length * 3));
        scratch.copy(grown, 0, 0, n);
        scratch = grown;
      }
      n += scratch.write(text, n, 'utf8');
    };
    put(i === 0 ? head : ',');
    for (let k = i; k < end; k++) {
      if (k > i) put(',');
      put(parts[k]!);
    }
    if (end >= parts.length) put(tail);
    out.push(zlib.gzipSync(scratch.subarray(0, n), { level: 6 }));
  }
  return out.length === 1 ? out[0]! : Buffer.concat(out);
}

/** gzipJoined's reusable UTF-8 buffer (grows to one member's size, ~1.6 MB at GZIP_PART snapshots). */
let scratch: Buffer = Buffer.allocUnsafe(64 * 1024);

