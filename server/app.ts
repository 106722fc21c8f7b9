/**
 * The Hono app factory. It takes its dependencies, so tests call `app.request()` on an in-memory KV
 * with no network, and main.ts serves the same app.
 */
import { compress } from "hono/compress";
import { Hono, type MiddlewareHandler } from "hono";
import type { Config } from "./config.ts";
import type { AppEnv, Services } from "./context.ts";
import { AnalyticsReports } from "../kv/analytics/reports.ts";
import { InsightReports } from "../kv/analytics/insight.ts";
import { JobStore } from "../kv/jobs/store.ts";
import { AdminStore } from "../kv/admins.ts";
import { SessionStore } from "../kv/sessions.ts";
import { ActivityLog } from "../kv/activity.ts";
import { Auth } from "./auth.ts";
import { adminRoutes } from "../routes/api/admin.ts";
import { twoFactorRoutes } from "../routes/api/two-factor.ts";
import { onError } from "./errors.ts";
import { securityHeaders } from "./security.ts";
import { assetRoutes } from "./assets.ts";
import { jobRoutes } from "../routes/api/jobs.ts";
import { savedJobRoutes } from "../routes/api/saved.ts";
import { alertApiRoutes } from "../routes/api/alerts.ts";
import { passwordResetRoutes } from "../routes/api/password-reset.ts";
import { deviceLinkRoutes } from "../routes/api/device-link.ts";
import { alertPages } from "../routes/alerts/pages.tsx";
import { AlertStore } from "../kv/alerts.ts";
import { PasswordResetStore } from "../kv/password-resets.ts";
import { DeviceLinkStore } from "../kv/device-links.ts";
import { createMailer, type Mailer } from "./mail.ts";
import { ShareImageDrawer } from "./share-image-drawer.ts";
import { HASH_PARAMS, type HashParams } from "./passwords.ts";
import { SITE_NAME } from "../routes/pages/document.tsx";
import { analyticsRoutes } from "../routes/api/analytics.ts";
import { activityRoutes } from "../routes/api/activity.ts";
import { publicPages } from "../routes/pages.tsx";
import { iconRoutes } from "../routes/icons.ts";
import { shareImageRoutes } from "../routes/share-image.ts";
import { adminShell } from "../routes/admin.tsx";
import { DEVELOPMENT, liveReloadRoutes } from "./live-reload.ts";
import { createCounter } from "./counter.ts";
import { ClockCheck } from "../kv/clock.ts";
import { databaseClock } from "../kv/db.ts";
import { AnswerCache, DEFAULT_CACHE_MB } from "./cache.ts";
import { Throttle } from "./throttle.ts";
import { clientAddresses, trustedProxies } from "./request.ts";

export interface AppDeps {
  kv: Deno.Kv;
  config: Config;
  now?: () => Date;
  /**
   * Whether the job store follows the job data for visitors, as a server does, or reads it on
   * every call (the default: a task ends when its work does, with no watch left open).
   */
  follow?: boolean;
  /** Where mails go; by default as the configuration says (server/mail.ts). */
  mailer?: Mailer;
  /** What draws share images; by default a worker thread of this process. */
  shareImages?: ShareImageDrawer;
  /** What new password hashes cost; OWASP's Argon2id parameters (`HASH_PARAMS`) by default. */
  passwordHashing?: HashParams;
}

/**
 * How often the job revision is read beside the watch: a local file's watch does not see other
 * processes' writes, and a read there costs microseconds; a remote database's watch sees every
 * write, so none.
 */
export function revisionPollMs(config: Config): number {
  if (config.REVISION_POLL_MS !== undefined) return config.REVISION_POLL_MS;
  const remote = config.DENO_KV_URL || (!config.DENO_KV_PATH && Deno.env.get("DENO_DEPLOYMENT_ID"));
  return remote ? 0 : 10;
}

export function createServices(
  {
    kv,
    config,
    now = () => new Date(),
    follow = false,
    mailer,
    shareImages,
    passwordHashing = HASH_PARAMS,
  }: AppDeps,
): Services {
  const admins = new AdminStore(kv, now);
  const sessions = new SessionStore(kv, now);
  const jobs = new JobStore(kv, now);
  if (follow) jobs.follow({ pollMs: revisionPollMs(config) });
  const reports = new AnalyticsReports(kv, config.TIMEZONE, now);
  const auth = new Auth(kv, config, now, sessions);
  return {
    kv,
    config,
    now,
    jobs,
    admins,
    sessions,
    auth,
    throttle: new Throttle(sessions, now, (email) => auth.keyedHash("sign-in throttle", email)),
    activity: new ActivityLog(kv, now, config.ACTIVITY_RETENTION_DAYS),
    counter: createCounter({ kv, config, now, jobs }),
    clock: new ClockCheck(kv, now, databaseClock(config)),
    cache: new AnswerCache((config.CACHE_MB ?? DEFAULT_CACHE_MB) * 1024 * 1024),
    alerts: new AlertStore(kv, now, config.TIMEZONE),
    passwordResets: new PasswordResetStore(kv, now),
    deviceLinks: new DeviceLinkStore(kv, now),
    mailer: mailer ?? createMailer(config, SITE_NAME),
    reports,
    insight: new InsightReports(kv, reports, config.TIMEZONE, now),
    shareImages: shareImages ?? new ShareImageDrawer(),
    passwordHashing,
  };
}

/**
 * Hono answers HEAD with the GET answer's headers and no body, which the server would then send
 * with `content-length: 0`. The length of the body a GET would get is stated instead.
 */
const headLength: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.req.method !== "HEAD" || !c.res.body) return;
  c.res.headers.set("content-length", String((await c.res.arrayBuffer()).byteLength));
};

/**
 * How long the server took over each answer (to its first byte, for a streamed page), as a
 * `Server-Timing` header: browsers' network panels show it, and the benchmark reads server time
 * from it rather than from a client's clock, which adds the network and the client's own work.
 */
const serverTiming: MiddlewareHandler = async (c, next) => {
  const start = performance.now();
  await next();
  c.res.headers.set("server-timing", `app;dur=${(performance.now() - start).toFixed(2)}`);
};

/**
 * An answer for a signed-in admin (or to signing in) is that admin's own: no cache, the browser's
 * or one on the way, may keep it. Public answers stay cacheable.
 */
const adminNoStore: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.get("admin") || c.req.header("authorization") || ADMIN_API.test(c.req.path)) {
    c.res.headers.set("cache-control", "no-store");
  }
};

/** The admin app's calls: few, each an admin's own, some of them megabytes of JSON. */
const ADMIN_API = /^\/api\/(admin|analytics|jobs\/admin)(\/|$)/;
const gzipAnswer = compress({ encoding: "gzip" });

/**
 * The admin app's answers gzipped as they stream out: the dashboard's per-day lists of viewed jobs
 * are megabytes of JSON over a few weeks (docs/decisions/032-admin-answers-gzipped.md). Public
 * answers are not: they are kept compressed once, not compressed per visitor.
 */
const adminGzip: MiddlewareHandler<AppEnv> = (c, next) =>
  ADMIN_API.test(c.req.path) ? gzipAnswer(c, next) : next();

export function createApp(deps: AppDeps | Services) {
  const services = "jobs" in deps ? deps : createServices(deps);
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.use(serverTiming);
  app.use(clientAddresses(trustedProxies(services.config.TRUSTED_PROXIES)));
  app.use(securityHeaders);
  app.use(headLength);

  const api = new Hono<AppEnv>();
  api.use(adminNoStore);
  api.use(adminGzip);
  api.route("/jobs", jobRoutes(services));
  api.route("/saved-jobs", savedJobRoutes(services));
  api.route("/alerts", alertApiRoutes(services));
  api.route("/admin/activity", activityRoutes(services));
  api.route("/admin/password-reset", passwordResetRoutes(services));
  api.route("/admin/device-link", deviceLinkRoutes(services));
  api.route("/admin", twoFactorRoutes(services));
  api.route("/admin", adminRoutes(services));
  api.route("/analytics", analyticsRoutes(services));
  api.all("/*", (c) => c.json({ message: "Not found" }, 404));
  app.route("/api", api);

  app.route("/assets", assetRoutes());
  if (DEVELOPMENT) app.route("/_dev", liveReloadRoutes());
  app.route("/admin", adminShell(services));
  app.route("/", iconRoutes());
  app.route("/", shareImageRoutes(services));
  app.route("/alerts", alertPages(services));
  app.route("/", publicPages(services));
  return app;
}
