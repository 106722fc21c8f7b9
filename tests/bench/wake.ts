/**
 * The longest main-thread task while a page's islands wake after the visitor's first move, in
 * Debian's Chromium slowed down as Lighthouse's phone is, driven over the DevTools protocol
 * directly rather than through Playwright.
 *
 * Playwright enables the protocol's Runtime domain on every page, and with it on, V8 collects
 * source positions for the code it runs (a trace shows V8.CollectSourcePositions re-parsing
 * React's runtime): waking a job page measured 124-136 ms in its longest task with the domain on
 * and under 50 ms with it off, sending Runtime.enable being the only difference. A visitor's
 * browser has no debugger attached, so the domain stays off here.
 */
import { allIslandsAwake, CHROMIUM_ARGS, desktopChromium } from "../helpers/browser.ts";

type Send = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
type Listen = (method: string, listener: (params: Record<string, unknown>) => void) => void;

/** Opens Chromium's DevTools socket for its first page; closing it stops the browser. */
async function openPage(): Promise<{ send: Send; listen: Listen } & AsyncDisposable> {
  const profile = await Deno.makeTempDir({ prefix: "careeredge-wake-" });
  const browser = new Deno.Command(desktopChromium(), {
    args: [
      ...CHROMIUM_ARGS,
      "--headless=new",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const dispose = async () => {
    browser.kill();
    await browser.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  };
  try {
    // Chromium names its socket on standard error once it listens.
    let text = "";
    for await (const chunk of browser.stderr.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      if (/DevTools listening on ws:\/\/[^/]+\//.test(text)) break;
    }
    const host = text.match(/DevTools listening on ws:\/\/([^/]+)\//)?.[1];
    if (!host) throw new Error("Chromium did not open its DevTools socket");
    const targets: { type: string; webSocketDebuggerUrl: string }[] =
      await (await fetch(`http://${host}/json`)).json();
    const target = targets.find((candidate) => candidate.type === "page");
    if (!target) throw new Error("Chromium has no page");
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    const waiting = new Map<number, (message: Record<string, unknown>) => void>();
    const listeners = new Map<string, (params: Record<string, unknown>) => void>();
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.method) listeners.get(message.method)?.(message.params);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    };
    const listen: Listen = (method, listener) => listeners.set(method, listener);
    let last = 0;
    const send: Send = (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++last;
        waiting.set(id, (message) =>
          message.error
            ? reject(new Error(`${method}: ${JSON.stringify(message.error)}`))
            : resolve(message.result as Record<string, unknown>));
        socket.send(JSON.stringify({ id, method, params }));
      });
    return {
      send,
      listen,
      [Symbol.asyncDispose]: async () => {
        socket.close();
        await dispose();
      },
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Evaluates `expression` in the page (without the Runtime domain) and returns its value. */
async function evaluate<T>(send: Send, expression: string): Promise<T> {
  const answer = await send("Runtime.evaluate", {
    expression,
    awaitPromise: true,
    returnByValue: true,
  });
  if (answer.exceptionDetails) throw new Error(JSON.stringify(answer.exceptionDetails));
  return (answer.result as { value: T }).value;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string; data?: { type?: string } };
}

/**
 * Loads `url`, lets it settle, slows the CPU down `slowdown` times, moves the pointer once, waits
 * until every island is hydrated (client/components/hydrate.tsx marks it `data-ready`), and gives
 * the longest task of the page's main thread meanwhile, in ms, from a trace of the browser's
 * top-level tasks (the Long Tasks API would only tell tasks over 50 ms).
 */
export async function wakeTask(url: string, slowdown: number): Promise<number> {
  await using page = await openPage();
  await page.send("Page.navigate", { url });
  // The visitor's first move comes once the page has loaded and settled: its own loading (images
  // decoded, the layout after them) is what Lighthouse's rows measure, not the wake.
  await evaluate(
    page.send,
    `new Promise((resolve) => {
      const settled = () => setTimeout(() => requestIdleCallback(() => resolve()), 1000);
      if (document.readyState === "complete") settled();
      else addEventListener("load", settled, { once: true });
    })`,
  );
  const events: TraceEvent[] = [];
  page.listen("Tracing.dataCollected", (params) => events.push(...params.value as TraceEvent[]));
  const complete = new Promise<void>((resolve) =>
    page.listen("Tracing.tracingComplete", () => resolve())
  );
  await page.send("Tracing.start", {
    categories: "toplevel,devtools.timeline",
    transferMode: "ReportEvents",
  });
  await page.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
  // A move is several events; the first in a new page reports no distance, as a resting mouse's
  // does, and wakes nothing (client/wake.ts).
  for (const at of [5, 10]) {
    await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: at, y: at });
  }
  await evaluate(
    page.send,
    `new Promise((resolve, reject) => {
      const started = performance.now();
      const check = () => {
        if ((${allIslandsAwake})()) {
          requestAnimationFrame(() => setTimeout(resolve, 100));
        } else if (performance.now() - started > 30000) {
          reject(new Error("the islands did not wake"));
        } else setTimeout(check, 50);
      };
      check();
    })`,
  );
  await page.send("Tracing.end");
  await complete;
  // The page's main thread is the one that handled the pointer move.
  const moved = events.find((event) =>
    event.name === "EventDispatch" && event.args?.data?.type === "pointermove"
  );
  if (!moved) throw new Error("the trace holds no pointer move");
  const tasks = events.filter((event) =>
    event.pid === moved.pid && event.tid === moved.tid && event.ph === "X" &&
    (event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask")
  );
  return Math.max(...tasks.map((task) => (task.dur ?? 0) / 1000));
}
