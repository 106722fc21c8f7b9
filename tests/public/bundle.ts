/**
 * The scripts a page's HTML brings: its module scripts, and what its islands fetch once the page
 * has loaded (each island file's first island lists them), read from the tags.
 */
export function islandEntries(html: string): string[] {
  const scripts = [...html.matchAll(/<script type="module" src="\/assets\/([^"?]+)/g)].map((m) =>
    m[1]
  );
  const islands = [...html.matchAll(/data-preload="\/assets\/(islands\/[^"? ]+)/g)].map((m) =>
    m[1]
  );
  return [...scripts, ...islands];
}
