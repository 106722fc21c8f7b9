/**
 * Gzip off the request thread when the thread is needed by others. Under real traffic (first
 * views of job pages, searches nobody made before) compressing each new page was a fifth of the
 * server's one JavaScript thread, about 0.2 ms of each answer's 1 ms; while other requests wait, a
 * worker does it on another core and the answer waits for it as it waits for a KV read. A request
 * answered alone is compressed at once: nobody waits behind it, and the trip to the worker would
 * only add to its answer. Should the worker fail, pages are compressed in the thread.
 */
import type { MiddlewareHandler } from "hono";
import { gzipSync, type ZlibOptions } from "node:zlib";

/** Level 4: a page of ours 1-3% larger than at zlib's default 6, in three quarters of the time. */
export const GZIP_OPTIONS: ZlibOptions = { level: 4 };

/** A page, as text or as bytes. */
export type PageBody = string | Uint8Array<ArrayBuffer>;

/** A page sent to the worker. */
export interface GzipTask {
  id: number;
  page: PageBody;
}

/** The gzipped page, sent back under the task's id. */
export interface GzipDone {
  id: number;
  bytes: Uint8Array<ArrayBuffer>;
}

interface Waiting {
  resolve: (bytes: Uint8Array<ArrayBuffer>) => void;
  page: PageBody;
}

/** The page gzipped, in the calling thread; text is compressed as UTF-8. */
export const gzipNow = (page: PageBody): Uint8Array<ArrayBuffer> =>
  new Uint8Array(gzipSync(page, GZIP_OPTIONS));

export class Compressor implements Disposable {
  /** Requests being answered, counted by `counting`. */
  #answering = 0;
  #worker: Worker | null = null;
  /** Set once the worker failed or the compressor was disposed of: no worker is started again. */
  #inThreadOnly = false;
  #waiting = new Map<number, Waiting>();
  #last = 0;

  /** Counts the requests being answered; the app runs it around every request. */
  counting: MiddlewareHandler = async (_c, next) => {
    this.#answering++;
    try {
      await next();
    } finally {
      this.#answering--;
    }
  };

  /** A function of its own, so it can be handed on. */
  gzip = (page: PageBody): Promise<Uint8Array<ArrayBuffer>> => {
    const worker = this.#answering > 1 ? this.#started() : null;
    if (!worker) return Promise.resolve(gzipNow(page));
    const id = ++this.#last;
    return new Promise((resolve) => {
      this.#waiting.set(id, { resolve, page });
      worker.postMessage({ id, page } satisfies GzipTask);
    });
  };

  /** The worker, started at the first page compressed (a process that serves none starts none). */
  #started(): Worker | null {
    if (this.#worker || this.#inThreadOnly) return this.#worker;
    const worker = new Worker(new URL("./gzip-worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = ({ data }: MessageEvent<GzipDone>) => {
      this.#waiting.get(data.id)?.resolve(data.bytes);
      this.#waiting.delete(data.id);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      console.error(`The gzip worker failed (${event.message}); pages are compressed in-thread`);
      this.#stop();
    };
    this.#worker = worker;
    return worker;
  }

  /** Stops the worker for good; pages it still had are compressed in the thread. */
  #stop() {
    this.#worker?.terminate();
    this.#worker = null;
    this.#inThreadOnly = true;
    for (const { resolve, page } of this.#waiting.values()) resolve(gzipNow(page));
    this.#waiting.clear();
  }

  [Symbol.dispose]() {
    this.#stop();
  }
}
