/**
 * The one script a public page runs while it loads. The islands stay plain server HTML (which
 * works without JavaScript) until the visitor shows they are using the page: at the first pointer
 * movement, touch, scroll, key or focus, their scripts are fetched, and once the browser is idle
 * they run and hydrate every island. Reaching for an island (a pointer over it, a touch, focus, a
 * key) wakes it at once. React's runtime is thus never fetched or evaluated while the page loads,
 * where it was the one long task, and a visitor who only reads pays for none of it.
 *
 * A click that arrives before its island is awake is held and given again once it is: a quick
 * tap on Share or Apply Now is not lost. If the script cannot load or hydrate, the click is given
 * to the page as it is, which then behaves as it does without JavaScript.
 */
import { dropBrokenLogos } from "./components/logos.ts";
import { nextTask } from "./components/next-task.ts";

/** The first signs of a visitor using the page, anywhere on it. */
const ENGAGED = ["pointermove", "touchstart", "scroll", "keydown", "focusin"] as const;
/** Signs of a visitor reaching for one island. */
const INTENT = ["pointerover", "pointerdown", "touchstart", "focusin", "keydown"] as const;
/** Controls whose click does something only an awake island does (or would do differently). */
const CLICKABLE = "a[href], button, summary";
/** How long a held click waits for its island before it is let through as it is. */
const WAKE_TIMEOUT_MS = 5_000;
/** How long the islands wait for an idle moment after the visitor's first move. */
const IDLE_TIMEOUT_MS = 2_000;

dropBrokenLogos();

const islands = () => [...document.querySelectorAll<HTMLElement>("[data-island]")];
const loading = new Map<string, Promise<unknown>>();

/**
 * The modules `root`'s island file runs, in order: the island file's first island lists its script
 * and then what the script imports, each after what it imports (server/build.ts).
 */
function modulesOf(root: HTMLElement): string[] {
  const script = root.dataset.script ?? "";
  const first = islands().find((island) =>
    island.dataset.script === script && island.dataset.preload
  );
  const [, ...imports] = first?.dataset.preload?.split(" ") ?? [];
  return [...imports, script];
}

/**
 * Runs the script of `root`'s island file once; it hydrates every island of that file. Each module
 * runs in a task of its own (React's runtime is one of them), so no one task holds the page long.
 */
function wake(root: HTMLElement): Promise<unknown> {
  const script = root.dataset.script ?? "";
  let started = loading.get(script);
  if (!started) {
    started = modulesOf(root).reduce(
      (before, url) => before.then(nextTask).then(() => import(url)),
      Promise.resolve(),
    );
    loading.set(script, started);
  }
  return started;
}

/**
 * Fetches the islands' scripts (each island file's first island lists what its script needs) as a
 * module import fetches them, so the imports find them in the browser's cache, at low priority.
 */
async function prefetch(): Promise<unknown> {
  const urls = new Set(islands().flatMap((root) => root.dataset.preload?.split(" ") ?? []));
  const fetched = [];
  for (const url of urls) {
    // One request started per task: starting one is a few milliseconds on a slow phone.
    await nextTask();
    fetched.push(
      fetch(url, { priority: "low" }).then((response) => response.arrayBuffer()).catch(() => {}),
    );
  }
  return Promise.all(fetched);
}

const whenIdle = (run: () => void) =>
  "requestIdleCallback" in globalThis
    ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS })
    : setTimeout(run, 200);

function engaged(event: Event) {
  // A browser moves a resting mouse itself after a layout change (at no distance): a visitor who
  // only reads, the pointer over the page, is not using it.
  const { movementX, movementY } = event as PointerEvent;
  if (event.type === "pointermove" && movementX === 0 && movementY === 0) return;
  for (const type of ENGAGED) removeEventListener(type, engaged, true);
  prefetch().then(() =>
    whenIdle(() => {
      for (const root of islands()) wake(root).catch(() => {});
    })
  );
}
for (const type of ENGAGED) addEventListener(type, engaged, { capture: true, passive: true });
for (const root of islands()) if (root.dataset.wake === "load") wake(root).catch(() => {});

function islandOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>("[data-island]") : null;
}

for (const type of INTENT) {
  document.addEventListener(type, (event) => {
    const root = islandOf(event.target);
    if (root) wake(root).catch(() => {});
  }, { capture: true, passive: true });
}

/** Resolves once React has hydrated `root` (client/components/hydrate.tsx marks it ready). */
function hydrated(root: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    if (root.hasAttribute("data-ready")) return resolve();
    const observer = new MutationObserver(() => {
      if (!root.hasAttribute("data-ready")) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(root, { attributes: true, attributeFilter: ["data-ready"] });
  });
}

document.addEventListener("click", (event) => {
  const root = islandOf(event.target);
  if (!root || root.hasAttribute("data-ready") || root.hasAttribute("data-asleep")) return;
  const control = (event.target as Element).closest<HTMLElement>(CLICKABLE);
  if (!control || !root.contains(control)) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("island did not wake")), WAKE_TIMEOUT_MS)
  );
  Promise.race([wake(root).then(() => hydrated(root)), timeout])
    .catch(() => root.setAttribute("data-asleep", ""))
    .then(() => control.click());
}, true);
