/** Serves the built browser assets from client/dist; hashed URLs are cached for a year. */
import { Hono, type MiddlewareHandler } from "hono";
import { serveStatic } from "hono/deno";
import { servedBuild, SHARE_IMAGE_FILES } from "./dist.ts";

/**
 * A chunk the bundler split out is named by a hash of its content (`chunk-HMNPARCE.js`) and asked
 * for by that name alone, from the scripts that import it: a new content is a new name.
 */
const CONTENT_NAMED = /-[A-Z0-9]{8}\.js$/;

/** A file the build writes beside the assets, read once. */
function built<T>(file: string): () => T {
  let content: T | null = null;
  return () => {
    content ??= JSON.parse(Deno.readTextFileSync(new URL(file, servedBuild()))) as T;
    return content!;
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
  // The share image's fonts and renderer are the server's, not the browser's.
  app.all(`/${SHARE_IMAGE_FILES.folder}/*`, (c) => c.text("Not found", 404));
  let serve: MiddlewareHandler | null = null;
  app.get("/*", (c, next) => {
    // Made on the first asset asked for, so an app that serves none needs no build.
    serve ??= serveStatic({
      root: servedBuild().pathname,
      rewriteRequestPath: (p) => p.replace(/^\/assets/, ""),
      precompressed: true,
    });
    return serve(c, next);
  });
  // A missing asset is an error to report, not a page to redirect to.
  app.all("/*", (c) => c.text("Not found", 404));
  return app;
}
