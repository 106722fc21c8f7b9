/** What the analytics tests share: real browsers' user agents, a client address, a report reader. */
import { Hono } from "hono";
import type { TestApp } from "../helpers/server.ts";
import type { SignedInAdmin } from "../helpers/admins.ts";

export const CHROME_DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
export const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
export const FIREFOX_ANDROID_TABLET =
  "Mozilla/5.0 (Android 14; Tablet; rv:133.0) Gecko/133.0 Firefox/133.0";
export const EDGE_DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";
export const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
export const HEADLESS_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36";

/** The env `Deno.serve` hands Hono, so `app.request()` sees a client address. */
export function from(address: string) {
  return { remoteAddr: { hostname: address, port: 50_000, transport: "tcp" } };
}

/**
 * A stand-in for a public page: it calls `pageView` exactly as a page handler does, so counting
 * rules are tested without depending on how the pages render.
 */
export function pageProbe(t: TestApp) {
  const app = new Hono();
  app.get("/jobs/:id", (c) => {
    t.services.counter.pageView(c, c.req.param("id"));
    return c.text("job page");
  });
  app.get("*", (c) => {
    t.services.counter.pageView(c);
    return c.text("page");
  });
  return app;
}

/** GETs a report as `admin` and returns its JSON, failing on any status but 200. */
export async function report<T = Record<string, unknown>>(
  t: TestApp,
  admin: SignedInAdmin,
  path: string,
): Promise<T> {
  const response = await t.app.request(path, { headers: admin.headers });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.message}`);
  return body as T;
}
