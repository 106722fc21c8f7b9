/**
 * The relative imports of a built script (client/dist), read from its text: what a browser will
 * fetch after it. The build lists each island's static imports from it, so a page can preload them;
 * the bundle-size tests count downloads with it.
 */
const STATIC_IMPORT =
  /(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC_IMPORT = /import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The relative specifiers `code` imports: statically, and also dynamically when `dynamic`. */
export function relativeImports(code: string, dynamic = false): string[] {
  return [
    ...code.matchAll(STATIC_IMPORT),
    ...(dynamic ? code.matchAll(DYNAMIC_IMPORT) : []),
  ].map((match) => match[1]);
}
