/**
 * The site's icons and its default share image, at the fixed paths browsers, phones and share
 * previews ask for (`/favicon.ico` without being told). They are a few KB, read once at start.
 * Pages link them with a content hash (`iconUrl`), which may be cached for good; the bare paths
 * are cached for 30 days, so a changed icon still reaches everyone.
 */
import { Hono } from "hono";
import { type HeaderList, SecureAnswer } from "../server/security.ts";
import { encodeHex } from "../kv/hex.ts";

const TYPES = {
  "favicon.svg": "image/svg+xml",
  "favicon.ico": "image/x-icon",
  "apple-touch-icon.png": "image/png",
  "share.png": "image/png",
} as const;

export type IconName = keyof typeof TYPES;

const folder = new URL("../client/icons/", import.meta.url);

const icons = await Promise.all(
  (Object.keys(TYPES) as IconName[]).map(async (name) => {
    const bytes = await Deno.readFile(new URL(name, folder));
    const hash = encodeHex(await crypto.subtle.digest("SHA-256", bytes)).slice(0, 12);
    return { name, bytes, hash };
  }),
);
const hashes = new Map(icons.map((icon) => [icon.name, icon.hash]));

/** The path of an icon with its content hash: a page's link to it never goes stale. */
export function iconUrl(name: IconName): string {
  return `/${name}?v=${hashes.get(name)}`;
}

export function iconRoutes() {
  const app = new Hono();
  for (const { name, bytes, hash } of icons) {
    const headers = (cacheControl: string): HeaderList => [
      ["content-type", TYPES[name]],
      ["cache-control", cacheControl],
    ];
    const versioned = new SecureAnswer(bytes, 200, headers("public, max-age=31536000, immutable"));
    const bare = new SecureAnswer(bytes, 200, headers("public, max-age=2592000"));
    app.get(`/${name}`, (c) => (c.req.query("v") === hash ? versioned : bare).response());
  }
  return app;
}
