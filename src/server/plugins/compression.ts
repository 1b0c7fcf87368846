/**
 * Compressed answers for consoles on slow links (technicians on farm Wi-Fi, managers on a phone's data).
 *
 * - API answers (JSON, CSV, text) of at least COMPRESS_MIN_BYTES are compressed when the caller accepts it: brotli
 *   when offered (browsers offer it over HTTPS and on localhost), else gzip. A miner list page of 50 rows is ~73 KB
 *   as JSON; brotli at quality 3 makes it ~3.8 KB in ~0.2 ms of CPU, gzip at level 3 ~5.4 KB in ~0.15 ms. Quality 3
 *   rather than brotli's default 11: an answer is compressed once per request, and 11 costs ~100× the CPU for ~20 %
 *   fewer bytes.
 * - The console's files (dist) are compressed once, at build time, at the highest settings (precompress.ts writes
 *   `.br` and `.gz` beside each text file) and @fastify/static sends the sibling the caller accepts (`preCompressed`).
 *   Here only answers held in memory (a string or a Buffer) are compressed; streams pass untouched.
 * - Callers that do not send Accept-Encoding (scripts, tests through inject) get plain bytes; the agent asks for
 *   gzip. Every answer of a compressible type says `Vary: Accept-Encoding`, so no cache hands one form to a client of
 *   the other.
 *
 * Registered after the idempotency plugin's onSend hook, so a kept answer is the plain one, compressed on each replay.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Smaller answers go as they are (a header and a few bytes saved do not pay for the work). */
export const COMPRESS_MIN_BYTES = 1024;
const BROTLI_QUALITY = 3;
const GZIP_LEVEL = 3;
/** Answers up to this size are compressed on the event loop (see compressBody). */
const SYNC_MAX_BYTES = 256 * 1024;
/** Content types worth compressing: text, JSON, JavaScript, XML and their +json / +xml kinds, SVG. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|x-ndjson|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type ResponseEncoding = 'br' | 'gzip';

/**
 * The encoding an answer goes in, from the request's Accept-Encoding (RFC 9110 §12.5.3): br or gzip (x-gzip too)
 * with a weight above 0, `*` standing for those not named; brotli first when weighted the same. Null: plain.
 */
export function chooseEncoding(header: string | string[] | undefined): ResponseEncoding | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return null;
  const weights = new Map<string, number>();
  for (const part of text.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const [key = '', value = ''] = p.split('=');
      if (key.trim().toLowerCase() === 'q') q = /^\s*(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/.test(value) ? Number(value) : Number.NaN;
    }
    if (Number.isNaN(q)) continue; // a malformed weight: the entry is ignored
    const coding = name === 'x-gzip' ? 'gzip' : name;
    weights.set(coding, Math.max(q, weights.get(coding) ?? 0));
  }
  const star = weights.get('*') ?? 0;
  const br = weights.get('br') ?? star;
  const gz = weights.get('gzip') ?? star;
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

/** Adds Accept-Encoding to the answer's Vary header (once). */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (current.split(',').some((v) => ['accept-encoding', '*'].includes(v.trim().toLowerCase()))) return;
  reply.header('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Compresses the body `payload` in `encoding`. Up to SYNC_MAX_BYTES on the event loop: a 73 KB list page takes
 * ~0.2 ms there, while the thread pool's asynchronous path cost 0.6 ms (gzip) to 1.4 ms (brotli) of CPU per answer
 * at 20 answers at once (its stream, a fresh encoder and its window per call, the hand-over between threads), and
 * made the list bench's server spend 5–7 ms of CPU per request instead of ~2. Larger answers (exports) go to the
 * thread pool, so the event loop is never held for long.
 */
export function compressBody(payload: string | Buffer, encoding: ResponseEncoding, size = Buffer.byteLength(payload)): Promise<Buffer> | Buffer {
  const sync = size <= SYNC_MAX_BYTES;
  if (encoding === 'gzip') return sync ? zlib.gzipSync(payload, { level: GZIP_LEVEL }) : gzip(payload, { level: GZIP_LEVEL });
  const options = {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
      // A window just large enough for the answer (brotli's default, 4 MB, is allocated per encoder: with 20 answers
      // at once that external memory made V8 collect garbage far more often).
      [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(16, Math.ceil(Math.log2(size + 16)))),
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  };
  return sync ? zlib.brotliCompressSync(payload, options) : brotli(payload, options);
}

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // streams (files) and empty answers
    if (request.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return payload;
    varyOnEncoding(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload; // a plain caller's answer is not even measured
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_MIN_BYTES) return payload;
    const body = await compressBody(payload, encoding, size);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
