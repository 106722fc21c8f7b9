/**
 * Share images are drawn on a thread of their own (server/share-image-worker.ts): resvg holds the
 * thread it draws on for a tenth of a second or more an image (most of it encoding the PNG), and on
 * the thread that answers requests every page asked for meanwhile waited behind it
 * (docs/decisions/033-share-images-drawn-on-a-thread-of-their-own.md). The worker starts with the
 * first image asked for, so a start (or a process never asked for one) does not load resvg and the
 * fonts; it loads them once and draws one SVG at a time. A worker that fails (to start, to load,
 * or later, or stops answering) is ended and started again for the next image, once; after a
 * second failure nothing is drawn any more and every draw rejects at once. `close()` ends it.
 */
import { servedBuild, SHARE_IMAGE_FILES } from "./dist.ts";

/** What the drawing thread is told: where resvg and the fonts are, then an SVG to draw. */
export type ToDrawingThread =
  | { files: { wasm: string; fonts: string[] } }
  | { id: number; svg: string };

/** What it answers: loaded (or not), and each SVG's PNG (or why not). */
export type FromDrawingThread =
  | { ready: true }
  | { failed: string }
  | { id: number; png: ArrayBuffer }
  | { id: number; error: string; broken: boolean };

/** Why an image was not drawn; the route answers with the plain image instead. */
export class DrawingFailed extends Error {}

/** How many workers a process starts in its life: the first, and one after a failure. */
const STARTS = 2;
/**
 * A worker that has not loaded, or answered a drawing, in this long is taken for hung. A drawing
 * takes up to 2 s on a busy 2-core machine, loading less than one.
 */
const ANSWER_WITHIN_MS = 20_000;

interface Pending {
  resolve(png: Uint8Array<ArrayBuffer>): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

function shareImageFiles(): ToDrawingThread {
  const build = servedBuild();
  const url = (file: string) => new URL(file, build).href;
  return {
    files: {
      wasm: url(SHARE_IMAGE_FILES.wasm),
      fonts: [url(SHARE_IMAGE_FILES.regular), url(SHARE_IMAGE_FILES.bold)],
    },
  };
}

export class ShareImageDrawer {
  #worker: Worker | undefined;
  #ready: Promise<void> | undefined;
  #loading: Pick<Pending, "timer"> & { resolve(): void; reject(error: Error): void } | undefined;
  #starts = 0;
  #closed = false;
  #nextId = 0;
  #pending = new Map<number, Pending>();

  /** `startWorker` makes the thread; tests give one that fails. */
  constructor(
    private readonly startWorker: () => Worker = () =>
      new Worker(new URL("./share-image-worker.ts", import.meta.url), { type: "module" }),
  ) {}

  /** Resolves once a worker has loaded resvg and the fonts, starting one when none runs. */
  ready(): Promise<void> {
    if (!this.#ready) {
      const starting = this.#start();
      this.#ready = starting;
      starting.catch(() => {
        if (this.#ready === starting) this.#ready = undefined;
      });
    }
    return this.#ready;
  }

  /** The PNG of `svg`, drawn by the worker; rejects with DrawingFailed when it cannot be. */
  async draw(svg: string): Promise<Uint8Array<ArrayBuffer>> {
    await this.ready();
    const worker = this.#worker;
    if (!worker) throw new DrawingFailed("the worker stopped");
    const id = this.#nextId++;
    const { promise, resolve, reject } = Promise.withResolvers<Uint8Array<ArrayBuffer>>();
    const timer = setTimeout(
      () => this.#fail(worker, `no image back within ${ANSWER_WITHIN_MS / 1000} s`),
      ANSWER_WITHIN_MS,
    );
    this.#pending.set(id, { resolve, reject, timer });
    worker.postMessage({ id, svg } satisfies ToDrawingThread);
    return await promise;
  }

  /** Ends the worker (the server is stopping); no image is drawn after it. */
  close() {
    this.#closed = true;
    if (this.#worker) this.#end(this.#worker, new DrawingFailed("the server is stopping"));
  }

  #start(): Promise<void> {
    if (this.#closed) return Promise.reject(new DrawingFailed("the server is stopping"));
    if (this.#starts >= STARTS) return Promise.reject(new DrawingFailed("the worker failed twice"));
    this.#starts++;
    let worker: Worker;
    try {
      const files = shareImageFiles();
      worker = this.startWorker();
      worker.postMessage(files);
    } catch (error) {
      this.#log(`could not be started (${error})`);
      return Promise.reject(new DrawingFailed(String(error)));
    }
    this.#worker = worker;
    worker.onmessage = (event: MessageEvent<FromDrawingThread>) => this.#answer(worker, event.data);
    worker.onerror = (event) => {
      // A worker's error left unhandled would end the whole process.
      event.preventDefault();
      this.#fail(worker, event.message);
    };
    worker.onmessageerror = () => this.#fail(worker, "a message could not be read");
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const timer = setTimeout(
      () => this.#fail(worker, `not loaded within ${ANSWER_WITHIN_MS / 1000} s`),
      ANSWER_WITHIN_MS,
    );
    this.#loading = { resolve, reject, timer };
    return promise;
  }

  #answer(worker: Worker, message: FromDrawingThread) {
    if ("ready" in message) {
      clearTimeout(this.#loading?.timer);
      this.#loading?.resolve();
      this.#loading = undefined;
    } else if ("failed" in message) {
      this.#fail(worker, `could not load resvg and the fonts (${message.failed})`);
    } else {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if ("png" in message) pending.resolve(new Uint8Array(message.png));
      else {
        pending.reject(new DrawingFailed(message.error));
        if (message.broken) this.#fail(worker, message.error);
      }
    }
  }

  /** Ends a worker that failed; the next image starts another while a start is left. */
  #fail(worker: Worker, reason: string) {
    if (this.#worker !== worker) return;
    this.#log(`failed: ${reason}`);
    this.#end(worker, new DrawingFailed(reason));
  }

  /** Terminates `worker` and rejects what waited on it. */
  #end(worker: Worker, error: DrawingFailed) {
    worker.terminate();
    this.#worker = undefined;
    this.#ready = undefined;
    if (this.#loading) {
      clearTimeout(this.#loading.timer);
      this.#loading.reject(error);
      this.#loading = undefined;
    }
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
  }

  #log(what: string) {
    const next = this.#closed || this.#starts >= STARTS
      ? "job pages' share images are the plain one from now on"
      : "it is started again for the next image";
    console.error(`Share images: the drawing worker ${what}; ${next}.`);
  }
}
