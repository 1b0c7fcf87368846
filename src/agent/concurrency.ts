/** Bounded-concurrency helpers (no dependency): at most `limit` tasks in flight. */

/** Runs `fn` for every item of an (async) iterable with at most `limit` in flight. Errors are the callee's business. */
export async function forEachLimit<T>(items: Iterable<T> | AsyncIterable<T>, limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  if (Array.isArray(items)) return forEachOfArray(items as readonly T[], limit, fn);
  const it = (Symbol.asyncIterator in Object(items) ? (items as AsyncIterable<T>)[Symbol.asyncIterator]() : (items as Iterable<T>)[Symbol.iterator]()) as
    | Iterator<T>
    | AsyncIterator<T>;
  let index = 0;
  let done = false;
  const workers: Promise<void>[] = [];
  const next = async (): Promise<void> => {
    while (!done) {
      const r = await it.next();
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
  for (let w = 0; w < Math.max(1, limit); w++) workers.push(next());
  await Promise.all(workers);
}

/** forEachLimit over an array: indexed, without an iterator result (and an `await` of it) per item. */
async function forEachOfArray<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        await fn(items[i]!, i);
      } catch {
        // fn owns its error handling; a throw must not stop the pool
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.max(1, Math.min(limit, items.length)); w++) workers.push(worker());
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
