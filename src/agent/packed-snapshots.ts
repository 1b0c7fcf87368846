import zlib from 'node:zlib';

/**
 * A cycle's snapshots for the spool, already gzip'd: `parts` are gzip members of comma-joined snapshot JSON texts
 * (each part the snapshots of one poll thread, in the order its miners answered: snapshot-texts.ts; an empty share has
 * no part). The spool wraps them in the batch's head and tail (packedBatch); every gunzip (zlib's, Node's streams, the
 * server's) reads concatenated members as one stream (RFC 1952 §2.2). Poll threads gzip their own share
 * (sharded-poller.ts): the texts of a worker's share never reach the main thread, and the shares are compressed at
 * the same time.
 */
export interface PackedSnapshots {
  parts: Buffer[];
  /** Snapshots in all parts. */
  count: number;
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
