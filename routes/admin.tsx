/**
 * The admin portal's pages. /admin/login is a page of its own: the sign-in form rendered here, made
 * interactive by the small `admin/login.js`, so it paints and works before the portal's code is
 * fetched. Every other `/admin/*` path gets the portal shell, which shows the auth-resolving spinner
 * until the single-page app in `admin/main.js` takes over, and carries the product's figures the app
 * reads at run time (`ADMIN_SETTINGS`). Neither script is linked from the public pages.
 */
import type { ReactNode } from "react";
import { type Context, Hono } from "hono";
import { renderToString } from "react-dom/server";
import type { AppEnv, Services } from "../server/context.ts";
import { assetUrl } from "../server/assets.ts";
import { LIVE_RELOAD_SCRIPT } from "../server/live-reload.ts";
import { AuthSpinner } from "../client/admin/spinner.tsx";
import { LoginPage } from "../client/admin/login-form.tsx";
import { TIME_ZONE_META } from "../client/admin/ui.tsx";
import { ADMIN_SETTINGS_META } from "../client/admin/settings.ts";
import { ADMIN_SETTINGS } from "../kv/constants.ts";
import { passwordResetPages } from "./password-reset/pages.tsx";
import { deviceLinkPages } from "./device-link/pages.tsx";

function Document(
  { script, timeZone, children }: { script?: string; timeZone: string; children: ReactNode },
) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>Admin Portal · CareerEdge</title>
        <meta name={TIME_ZONE_META} content={timeZone} />
        {script === "admin/main.js" && (
          <meta name={ADMIN_SETTINGS_META} content={JSON.stringify(ADMIN_SETTINGS)} />
        )}
        <link rel="stylesheet" href={assetUrl("styles.css")} />
        {/* Module scripts run in document order: zod's settings are in place before the app. */}
        {script && <script type="module" src={assetUrl("admin/zod-config.js")} />}
        {script && <script type="module" src={assetUrl(script)} />}
        {LIVE_RELOAD_SCRIPT && <script type="module" src={LIVE_RELOAD_SCRIPT} />}
      </head>
      <body className="bg-slate-50 text-slate-900 antialiased">
        {script && (
          <noscript>
            <p className="bg-amber-50 p-4 text-center text-sm text-amber-900">
              The admin portal needs JavaScript, which is turned off in this browser.
            </p>
          </noscript>
        )}
        <div id="admin-root">{children}</div>
      </body>
    </html>
  );
}

/** Rendered once, after the build wrote the manifest: the same for every request. */
function once(render: () => ReactNode): () => string {
  let html: string | null = null;
  return () => html ??= `<!doctype html>${renderToString(render())}`;
}

function answer(c: Context<AppEnv>, html: string) {
  c.header("cache-control", "no-store");
  c.header("x-robots-tag", "noindex");
  return c.html(html);
}

export function adminShell(services: Services) {
  const timeZone = services.config.TIMEZONE;
  const loginPage = once(() => (
    <Document script="admin/login.js" timeZone={timeZone}>
      <LoginPage onSignedIn={() => Promise.resolve()} />
    </Document>
  ));
  const shell = once(() => (
    <Document script="admin/main.js" timeZone={timeZone}>
      <AuthSpinner />
    </Document>
  ));
  const app = new Hono<AppEnv>();
  app.get("/login", (c) => answer(c, loginPage()));
  // The form posts here only when its script has not run yet (or never will): signing in needs the
  // script, which keeps the session token in the browser. Back to the form, the password dropped.
  app.post("/login", (c) => c.redirect("/admin/login", 303));
  // The password reset and browser confirmation pages need no script at all.
  const plain = (content: ReactNode) =>
    `<!doctype html>${renderToString(<Document timeZone={timeZone}>{content}</Document>)}`;
  app.route("/", passwordResetPages(services, plain));
  app.route("/", deviceLinkPages(services, plain));
  app.get("*", (c) => answer(c, shell()));
  return app;
}
