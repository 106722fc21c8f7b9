/** What every request handler can reach: the stores, the configuration and the clock. */
import type { Context } from "hono";
import type { Config } from "./config.ts";
import type { JobStore } from "../kv/jobs/store.ts";
import type { Admin } from "../kv/schemas.ts";
import type { AdminStore } from "../kv/admins.ts";
import type { SessionStore } from "../kv/sessions.ts";
import type { ActivityLog } from "../kv/activity.ts";
import type { Auth } from "./auth.ts";
import type { AnswerCache } from "./cache.ts";
import type { Throttle } from "./throttle.ts";
import type { HashParams } from "./passwords.ts";
import type { ClockCheck } from "../kv/clock.ts";
import type { AlertStore } from "../kv/alerts.ts";
import type { PasswordResetStore } from "../kv/password-resets.ts";
import type { DeviceLinkStore } from "../kv/device-links.ts";
import type { Mailer } from "./mail.ts";
import type { AnalyticsReports } from "../kv/analytics/reports.ts";
import type { InsightReports } from "../kv/analytics/insight.ts";
import type { ShareImageDrawer } from "./share-image-drawer.ts";

/**
 * Counts public traffic. Each call classifies the request itself (bots, prefetches and
 * HEAD requests count nothing) and never delays the response.
 */
export interface TrafficCounter {
  /** A public page was served: a website visit, plus a job view when it is a job's detail page. */
  pageView(c: Context, jobId?: string): void;
  /** A public `GET /api/jobs/{id}` (no admin session). */
  jobView(c: Context, jobId: string): void;
  /**
   * A public search (the /jobs page, `GET /api/jobs`), called once its query is known to be good:
   * the counter reads what it counts (the keyword box's text) from the request's query itself.
   */
  search(c: Context): void;
  /** An apply click: `POST /api/jobs/{id}/click` or the no-script `/jobs/{id}/apply` link. */
  jobClick(c: Context, jobId: string): void;
  /**
   * The same click, written to the database before it resolves, so a click that was answered
   * survives the process being killed (falls back to the batch when the write fails).
   */
  durableClick(c: Context, jobId: string): Promise<void>;
  /** Writes whatever is batched in memory; called on shutdown and by tests. */
  flush(): Promise<void>;
}

export interface Services {
  kv: Deno.Kv;
  config: Config;
  /** The clock; tests replace it to move through days. */
  now: () => Date;
  jobs: JobStore;
  admins: AdminStore;
  sessions: SessionStore;
  auth: Auth;
  /** Limits failed password and secret checks (per account and address, and per address). */
  throttle: Throttle;
  activity: ActivityLog;
  counter: TrafficCounter;
  /** Whether this process's clock agrees with the others', so it may age jobs. */
  clock: ClockCheck;
  /** Every HTTP answer kept for reuse, within one budget in bytes. */
  cache: AnswerCache;
  /** E-mail job alerts. */
  alerts: AlertStore;
  /** Links that set a forgotten admin password. */
  passwordResets: PasswordResetStore;
  /** Mailed links that confirm a browser for an account its failed sign-ins hold back. */
  deviceLinks: DeviceLinkStore;
  /** Sends every mail the product sends (server/mail.ts). */
  mailer: Mailer;
  /** The traffic reports: totals, top jobs, trends. */
  reports: AnalyticsReports;
  /** The insight reports: a job's days and sources, traffic sources, search terms. */
  insight: InsightReports;
  /** Draws job pages' share images on a thread of its own, started by the first one. */
  shareImages: ShareImageDrawer;
  /**
   * What new password hashes cost (`hashPassword`): OWASP's Argon2id parameters, or the least in
   * test apps, whose hundreds of accounts would otherwise take minutes of the suite's processor.
   */
  passwordHashing: HashParams;
}

export interface AppEnv {
  Variables: {
    /** The signed-in admin, set by the auth middleware. */
    admin: Admin;
    /** The session id (`jti`) of the admin's token. */
    sessionId: string;
    /** The client's address, decided once per request (server/request.ts). */
    clientAddress: string;
  };
}
