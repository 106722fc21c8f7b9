/**
 * The whole Deno KV key layout. No other file spells a key.
 *
 * Jobs
 *   ["jobs", _id]                                   StoredJob: the Job and its schemaVersion
 *   ["jobs_by_jobid", jobId]                        _id (pointer, so it never goes stale)
 *   ["jobs_by_status", status, datePostedMs, _id]   JobIndexEntry; for active jobs the whole Job, so
 *                                                   the public catalogue loads in one range scan
 *                                                   (rewritten in the same atomic write as the job)
 *   ["jobs_by_date", datePostedMs, _id]             JobIndexEntry, every status ("all" tab)
 *   ["jobs_dump_by_moved", movedToDumpAtMs, _id]    JobIndexEntry, dump jobs only
 *   ["jobs_by_link", normalisedHiringLink]          _id, active jobs only: the uniqueness guard
 *   ["jobs_meta"]                                   JobsMeta: revision, jobId sequence, status counts
 *   ["jobs_changes", revision]                      _id[] changed by that revision (expires in a day)
 *   ["job_counter", _id, "views" | "clicks"]        Deno.KvU64 running totals
 *
 * Admins and sessions
 *   ["admins", _id]                                 AdminRecord and its schemaVersion
 *   ["admins_by_email", email]                      _id
 *   ["admins_main"]                                 _id of the one main admin
 *   ["sessions", jti]                               Session and its schemaVersion (expires with
 *                                                   the token)
 *   ["sessions_by_admin", adminId, jti]             start time in epoch ms (expires with the token)
 *   ["login_failures", "account_address", account, address]
 *                                                   LoginFailures (expires with the window)
 *   ["login_failures", "address", address]          LoginFailures (expires with the window)
 *
 * Activity log (kv/activity.ts); both expire after ACTIVITY_RETENTION_DAYS
 *   ["activity", recordId]                          ActivityRecord and its schemaVersion; ids
 *                                                   sort by time
 *   ["activity_by_job", jobId, recordId]            null: a job's history, by its JB- number
 *
 * Backups (kv/backup.ts)
 *   ["restore_in_progress"]                         ISO time a restore began; gone once it finished
 *
 * Configuration
 *   ["config", "jwt_secret"]                        base64url key, made once when JWT_SECRET is unset
 *   ["config", "main_admin_secret"]                 made once when MAIN_ADMIN_SECRET is unset
 *
 * Demo data (kv/seed.ts, kv/demo/)
 *   ["demo_seed"]                                   ISO time the demo set was claimed, so two
 *                                                   processes starting at once seed it only once
 *
 * E-mail job alerts (kv/alerts.ts). An address is kept only while it has an alert.
 *   ["alerts", id]                                  Alert and its schemaVersion; a pending one
 *                                                   expires 7 days after it was asked for
 *   ["alert_addresses", email]                      AlertAddress: the ids of the address's alerts
 *                                                   (expires with its alerts while all are pending)
 *   ["alert_tokens", sha256Hex]                     AlertToken: what a link in a mail may do; only
 *                                                   the token's hash is kept (confirm: expires in
 *                                                   7 days; unsubscribe and manage: 60 days)
 *   ["alerts_due", dueAtMs, id]                     null: the alert's next digest is due then
 *   ["alert_confirmations", email]                  WindowCount: confirmation mails in 24 hours
 *   ["alert_requests", addressBucket]               WindowCount: alert requests from one client
 *                                                   address in an hour
 *   ["alert_totals", "confirmed"]                   Deno.KvU64: confirmed alerts now
 *   ["alert_day", day, "sent" | "failed" | "confirmed"]
 *                                                   Deno.KvU64: digests sent, sends failed and
 *                                                   alerts confirmed that day (TIMEZONE)
 *
 * Analytics: see the ANALYTICS section below.
 */
import type { JobStatus } from "./schemas.ts";

/** Whose failed sign-ins a count is: one address, or one account tried from one address. */
export interface FailureScope {
  account?: string;
  address: string;
}

/** What the alert totals count per day. */
export type AlertDayField = "sent" | "failed" | "confirmed";

export const keys = {
  job: (id: string) => ["jobs", id] as const,
  jobs: () => ["jobs"] as const,
  jobByJobId: (jobId: string) => ["jobs_by_jobid", jobId] as const,
  jobsByStatus: (status: JobStatus) => ["jobs_by_status", status] as const,
  jobByStatus: (status: JobStatus, datePostedMs: number, id: string) =>
    ["jobs_by_status", status, datePostedMs, id] as const,
  jobsByDate: () => ["jobs_by_date"] as const,
  jobByDate: (datePostedMs: number, id: string) => ["jobs_by_date", datePostedMs, id] as const,
  jobsDumpByMoved: () => ["jobs_dump_by_moved"] as const,
  jobDumpByMoved: (movedMs: number, id: string) => ["jobs_dump_by_moved", movedMs, id] as const,
  jobByLink: (normalisedLink: string) => ["jobs_by_link", normalisedLink] as const,
  jobsMeta: () => ["jobs_meta"] as const,
  jobsChange: (revision: number) => ["jobs_changes", revision] as const,
  jobCounter: (id: string, counter: "views" | "clicks") => ["job_counter", id, counter] as const,

  admin: (id: string) => ["admins", id] as const,
  admins: () => ["admins"] as const,
  adminByEmail: (email: string) => ["admins_by_email", email] as const,
  mainAdmin: () => ["admins_main"] as const,
  sessions: () => ["sessions"] as const,
  session: (jti: string) => ["sessions", jti] as const,
  sessionsOfAllAdmins: () => ["sessions_by_admin"] as const,
  sessionsOfAdmin: (adminId: string) => ["sessions_by_admin", adminId] as const,
  sessionOfAdmin: (adminId: string, jti: string) => ["sessions_by_admin", adminId, jti] as const,
  loginFailures: (scope: FailureScope) =>
    scope.account === undefined
      ? ["login_failures", "address", scope.address] as const
      : ["login_failures", "account_address", scope.account, scope.address] as const,

  config: (name: "jwt_secret" | "main_admin_secret") => ["config", name] as const,

  activities: () => ["activity"] as const,
  activity: (id: string) => ["activity", id] as const,
  jobActivity: (jobId: string) => ["activity_by_job", jobId] as const,
  jobActivityEntry: (jobId: string, id: string) => ["activity_by_job", jobId, id] as const,
  restoreInProgress: () => ["restore_in_progress"] as const,

  alert: (id: string) => ["alerts", id] as const,
  alertAddress: (email: string) => ["alert_addresses", email] as const,
  alertToken: (hash: string) => ["alert_tokens", hash] as const,
  alertsDue: () => ["alerts_due"] as const,
  alertDue: (dueAtMs: number, id: string) => ["alerts_due", dueAtMs, id] as const,
  alertConfirmations: (email: string) => ["alert_confirmations", email] as const,
  alertRequests: (bucket: string) => ["alert_requests", bucket] as const,
  alertTotal: (field: "confirmed") => ["alert_totals", field] as const,
  alertDays: () => ["alert_day"] as const,
  alertDay: (day: string, field: AlertDayField) => ["alert_day", day, field] as const,

  // DEMO DATA
  demoSeed: () => ["demo_seed"] as const,
  // ANALYTICS. `day` is "YYYY-MM-DD" in TIMEZONE; counters are
  // Deno.KvU64 written with `sum`, so concurrent processes never lose a count.
  //   ["analytics_day", day, field]                  daily totals: visits, uniques, views, clicks,
  //                                                   device:*, browser:*, and writes (bumped by
  //                                                   every write to the day, so caches can check it)
  //   ["analytics_job_day", day, _id, kind]          views or clicks of one job on one day
  //   ["analytics_company_day", day, company, kind]  views or clicks of one company on one day
  //   ["analytics_writes"]                           bumped by every analytics write: reports reuse
  //                                                   their answers while it is unchanged
  //   ["analytics_jobs", _id]                        JobRef: jobId, role, company, schemaVersion
  //                                                  (kept after delete)
  //   ["analytics_salt", day]                        the day's secret visitor salt (expires in 48 h)
  //   ["analytics_visitors", day, hash]              null: this visitor is counted (expires in 48 h)
  //   ["analytics_networks", day, hash]              number: visitors admitted from one address
  //                                                   (an IPv6 /64) that day (expires in 48 h)
  //   ["analytics_seen", day, visitor, kind, _id]    null: this visitor's view or click of the job
  //                                                   is counted that day (expires in 48 h)
  analyticsWrites: () => ["analytics_writes"] as const,
  analyticsDay: (day: string) => ["analytics_day", day] as const,
  analyticsDayTotal: (day: string, field: string) => ["analytics_day", day, field] as const,
  analyticsAllJobDays: () => ["analytics_job_day"] as const,
  analyticsJobDays: (day: string) => ["analytics_job_day", day] as const,
  analyticsJobDay: (day: string, id: string, kind: "views" | "clicks") =>
    ["analytics_job_day", day, id, kind] as const,
  analyticsCompanyDays: (day: string) => ["analytics_company_day", day] as const,
  analyticsCompanyDay: (day: string, company: string, kind: "views" | "clicks") =>
    ["analytics_company_day", day, company, kind] as const,
  analyticsJobs: () => ["analytics_jobs"] as const,
  analyticsJob: (id: string) => ["analytics_jobs", id] as const,
  analyticsSalt: (day: string) => ["analytics_salt", day] as const,
  analyticsVisitors: (day: string) => ["analytics_visitors", day] as const,
  analyticsVisitor: (day: string, hash: string) => ["analytics_visitors", day, hash] as const,
  analyticsNetwork: (day: string, hash: string) => ["analytics_networks", day, hash] as const,
  analyticsSeen: (day: string, visitor: string, kind: "views" | "clicks", id: string) =>
    ["analytics_seen", day, visitor, kind, id] as const,
} as const;
