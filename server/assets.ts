/** Serves the built browser assets from client/dist; hashed URLs are cached for a year. */
import { Hono } from "hono";
import { serveStatic } from "hono/deno";

const dist = new URL("../client/dist/", import.meta.url);

/**
 * A chunk the bundler split out is named by a hash of its content (`chunk-HMNPARCE.js`) and asked
 * for by that name alone, from the scripts that import it: a new content is a new name.
 */
const CONTENT_NAMED = /-[A-Z0-9]{8}\.js$/;

/** A file the build writes into client/dist, read once. */
function built<T>(file: string): () => T {
  let content: T | null = null;
  return () => {
    if (content === null) {
      try {
        content = JSON.parse(Deno.readTextFileSync(new URL(file, dist))) as T;
      } catch {
        throw new Error("client/dist is missing: run `deno task build` first");
      }
    }
    return content;
  };
}

const manifest = built<Record<string, string>>("manifest.json");
const imports = built<Record<string, string[]>>("imports.json");

/** The cache-busting URL of a built asset, such as `assetUrl("styles.css")`. */
export function assetUrl(name: string): string {
  return manifest()[name] ?? `/assets/${name}`;
}

/** The URLs a built script imports, however deep, as the browser asks for them. */
export function assetImports(name: string): string[] {
  return (imports()[name] ?? []).map((path) => `/assets/${path}`);
}

export function assetRoutes() {
  const app = new Hono();
  app.use("/*", async (c, next) => {
    await next();
    if (c.res.ok) {
      c.header(
        "cache-control",
        c.req.query("v") || CONTENT_NAMED.test(c.req.path)
          ? "public, max-age=31536000, immutable"
          : "public, max-age=300",
      );
    }
  });
  app.get(
    "/*",
    serveStatic({
      root: dist.pathname,
      rewriteRequestPath: (p) => p.replace(/^\/assets/, ""),
      precompressed: true,
    }),
  );
  // A missing asset is an error to report, not a page to redirect to.
  app.all("/*", (c) => c.text("Not found", 404));
  return app;
}
