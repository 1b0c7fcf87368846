/** Bounded-concurrency helpers (no dependency): at most `limit` tasks in flight. */

/**
 * Runs `fn` for every item of an (async) iterable with at most `limit` in flight. Errors are the callee's business.
 * A plain iterable (an array of 20,000 miners) is stepped without an `await` per item.
 */
export async function forEachLimit<T>(items: Iterable<T> | AsyncIterable<T>, limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  const isAsync = Symbol.asyncIterator in Object(items);
  const it = isAsync ? (items as AsyncIterable<T>)[Symbol.asyncIterator]() : (items as Iterable<T>)[Symbol.iterator]();
  let index = 0;
  let done = false;
  const next = async (): Promise<void> => {
    while (!done) {
      const r = isAsync ? await it.next() : (it as Iterator<T>).next();
      if (r.done) {
        done = true;
        return;
      }
      const i = index++;
      try {
        await fn(r.value, i);
      } catch {
        // fn owns its error handling; a throw must not stop the pool
      }
    }
  };
  const workers: Promise<void>[] = [];
  // no more workers than an array has items
  const n = Math.max(1, Array.isArray(items) ? Math.min(limit, items.length) : limit);
  for (let w = 0; w < n; w++) workers.push(next());
  await Promise.all(workers);
}

/** Maps with bounded concurrency, preserving order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  await forEachLimit(items, limit, async (item, i) => {
    out[i] = await fn(item, i);
  });
  return out;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
