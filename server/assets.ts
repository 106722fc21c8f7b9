/** Serves the built browser assets from client/dist; hashed URLs are cached for a year. */
import { Hono } from "hono";
import { serveStatic } from "hono/deno";

const dist = new URL("../client/dist/", import.meta.url);

let manifest: Record<string, string> | null = null;

/** The cache-busting URL of a built asset, such as `assetUrl("styles.css")`. */
export function assetUrl(name: string): string {
  if (!manifest) {
    try {
      manifest = JSON.parse(Deno.readTextFileSync(new URL("manifest.json", dist)));
    } catch {
      throw new Error("client/dist is missing: run `deno task build` first");
    }
  }
  return manifest![name] ?? `/assets/${name}`;
}

export function assetRoutes() {
  const app = new Hono();
  app.use("/*", async (c, next) => {
    await next();
    if (c.res.ok) {
      c.header(
        "cache-control",
        c.req.query("v") ? "public, max-age=31536000, immutable" : "public, max-age=300",
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
