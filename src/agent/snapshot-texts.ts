import zlib from 'node:zlib';
import type { PackedSnapshots } from './packed-snapshots';

/** Snapshots per gzip member (≈ 1.5 MB of JSON): the open member is all a poll thread holds uncompressed. */
export const GZIP_PART = 1000;

/**
 * A poll thread's snapshot JSON texts, kept as the gzip the spool gets. Each text is written (UTF-8, comma-joined) to
 * the running cycle's open gzip member as soon as its miner is polled, and every GZIP_PART texts the member is
 * compressed; sealing the cycle closes the last member, and the members joined are the cycle's part of
 * PackedSnapshots (in the order the miners answered). The sealed cycle's members stay as the miners' last snapshots
 * until the next seal: a text is unzipped again only when needed (a miner that misses its next poll repeats its
 * snapshot, an operation reads the last one).
 *
 * Why: kept as strings, a cycle's texts lived in the V8 heap for the rest of their cycle and the whole next one,
 * copied to the old generation on the way (~30 MB at 20,000 miners, which the old generation let grow about twice
 * over between its collections); held uncompressed until the end of the cycle, ~15 MB per poll thread. Now a poll
 * thread holds one open member (~1.5 MB) and two cycles' gzip (~2.5 MB each). tests/bench/agent.bench.ts.
 *
 * A text's place: (cycle, member, start, end), its bytes [start, end) of member `member` unzipped; `cycle` is the
 * running cycle's number or the one before (sealed). After `add`, the place of the text just written is in
 * `member` / `start` / `end` (fields, not an object per text).
 */
export class SnapshotTexts {
  /** The running cycle's number; the sealed cycle is the one before. */
  cycle = 1;
  /** Where `add` wrote the last text. */
  member = 0;
  start = 0;
  end = 0;
  /** Texts added to the running cycle. */
  count = 0;
  private members: Buffer[] = [];
  /** The open member's bytes. */
  private stage: Buffer = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  private sealedMembers: Buffer[] = [];
  /** Members (of either cycle) unzipped since the last seal, by member: a cycle in which many miners miss reads each once. */
  private readonly unzipped = new Map<Buffer, Buffer>();

  /** Writes a text to the running cycle; its place is then in member / start / end. */
  add(text: string): void {
    if (this.count > 0 && this.count % GZIP_PART === 0) this.closeMember();
    // UTF-8 needs at most 3 bytes per UTF-16 unit, plus the comma
    const need = this.used + 1 + text.length * 3;
    if (need > this.stage.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.stage.length * 2, need));
      this.stage.copy(grown, 0, 0, this.used);
      this.stage = grown;
    }
    // a member after the first starts with the comma that follows the previous member's last text
    if (this.count > 0) this.stage[this.used++] = 0x2c;
    this.start = this.used;
    this.used += this.stage.write(text, this.used, 'utf8');
    this.end = this.used;
    this.member = this.members.length;
    this.count++;
  }

  /** A text by its place. */
  text(cycle: number, member: number, start: number, end: number): string {
    if (cycle === this.cycle && member === this.members.length) return this.stage.toString('utf8', start, end);
    const members = cycle === this.cycle ? this.members : cycle === this.cycle - 1 ? this.sealedMembers : null;
    const gz = members?.[member];
    if (!gz) throw new Error(`snapshot texts: cycle ${cycle} member ${member} is not kept`);
    let bytes = this.unzipped.get(gz);
    if (!bytes) {
      bytes = zlib.gunzipSync(gz);
      this.unzipped.set(gz, bytes);
    }
    return bytes.toString('utf8', start, end);
  }

  /**
   * Ends the running cycle, which becomes the sealed one (the one sealed before is dropped: its places are no longer
   * valid). Returns its members joined (memory of its own, which may be transferred to another thread), or null when
   * it has no texts.
   */
  seal(): Buffer | null {
    if (this.count > 0) this.closeMember();
    const part = this.members.length ? Buffer.concat(this.members) : null;
    this.sealedMembers = this.members;
    this.members = [];
    this.unzipped.clear();
    this.count = 0;
    this.cycle++;
    return part;
  }

  /** Drops the running cycle's texts (they are about to be written again). */
  restart(): void {
    for (const gz of this.members) this.unzipped.delete(gz);
    this.members = [];
    this.used = 0;
    this.count = 0;
  }

  private closeMember(): void {
    this.members.push(zlib.gzipSync(this.stage.subarray(0, this.used), { level: 6 }));
    this.used = 0;
  }
}

/** The texts as one part of PackedSnapshots, written and sealed at once. */
export function packTexts(texts: readonly string[]): PackedSnapshots {
  const t = new SnapshotTexts();
  for (const text of texts) t.add(text);
  const part = t.seal();
  return { parts: part ? [part] : [], count: texts.length };
}
