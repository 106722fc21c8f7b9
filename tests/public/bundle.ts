/** The island bundles a page's HTML loads, read from its module script tags. */
export function islandEntries(html: string): string[] {
  return [...html.matchAll(/<script type="module" src="\/assets\/([^"?]+)/g)].map((m) => m[1]);
}
