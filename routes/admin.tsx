/**
 * The admin portal shell (issue 5): every `/admin/*` path gets the same server-rendered page, which
 * shows the auth-resolving spinner until the single-page app in `admin/main.js` takes over. The
 * app's code is linked only here, never from the public pages.
 */
import { Hono } from "hono";
import { renderToString } from "react-dom/server";
import type { AppEnv, Services } from "../server/context.ts";
import { assetUrl } from "../server/assets.ts";
import { AuthSpinner } from "../client/admin/spinner.tsx";

function Shell() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>Admin Portal · CareerEdge</title>
        <link rel="stylesheet" href={assetUrl("styles.css")} />
        {/* Module scripts run in document order: zod's settings are in place before the app. */}
        <script type="module" src={assetUrl("admin/zod-config.js")} />
        <script type="module" src={assetUrl("admin/main.js")} />
      </head>
      <body className="bg-slate-50 text-slate-900 antialiased">
        <div id="admin-root">
          <AuthSpinner />
        </div>
      </body>
    </html>
  );
}

export function adminShell(_services: Services) {
  const app = new Hono<AppEnv>();
  let html: string | null = null;
  app.get("*", (c) => {
    // The shell is the same for every path: render it once (after the build wrote the manifest).
    html ??= `<!doctype html>${renderToString(<Shell />)}`;
    c.header("cache-control", "no-store");
    c.header("x-robots-tag", "noindex");
    return c.html(html);
  });
  return app;
}
