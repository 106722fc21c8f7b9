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
 * The catalogue's snapshot (kv/jobs/snapshot.ts), for cold starts
 *   ["catalogue_snapshot"]                          SnapshotHead: revision, chunk count, hash
 *   ["catalogue_snapshot_chunks", id, n]            Uint8Array: part n of snapshot `id`
 *                                                   (expires in 30 days)
 *   ["catalogue_snapshot_lease"]                    ISO time: a process is writing one (expires)
 *
 * Admins and sessions
 *   ["admins", _id]                                 AdminRecord and its schemaVersion
 *   ["admins_by_email", email]                      _id
 *   ["admins_main"]                                 _id of the one main admin
 *   ["sessions", jti]                               Session and its schemaVersion (expires with
 *                                                   the token)
 *   ["sessions_by_admin", adminId, jti]             start time in epoch ms (expires with the token)
 *   ["login_failures", "account_address", accountHash, address]
 *                                                   LoginFailures (expires with the window)
 *   ["login_failures", "address", address]          LoginFailures (expires with the window)
 *   ["login_failures", "account", accountHash]      LoginFailures (expires with the window); an
 *                                                   accountHash is a keyed hash of the typed
 *                                                   e-mail (server/throttle.ts)
 *   ["login_failures", "account_codes", accountHash]
 *                                                   LoginFailures: two-factor codes sent from
 *                                                   browsers the account does not know
 *   ["known_devices", adminId, sha256(device)]      null: a browser this admin signed in from
 *                                                   (expires KNOWN_DEVICE_DAYS after the last)
 *
 * Password reset by mail (kv/password-resets.ts); only a link's hash is kept
 *   ["password_resets", sha256Hex]                  PasswordReset: whose password the link sets
 *                                                   (expires in 30 minutes)
 *   ["password_resets_by_admin", adminId, sha256Hex]
 *                                                   null: the admin's live links, all spent by one
 *                                                   reset (expires with the link)
 *   ["password_reset_mails", adminId]               WindowCount: reset mails sent in an hour
 *   ["password_reset_requests", addressBucket]      WindowCount: reset requests from one client
 *                                                   address in an hour
 *
 * Mailed links that confirm a browser for an account (kv/device-links.ts); only a link's hash is kept
 *   ["device_links", sha256Hex]                     DeviceLink: whose browser the link confirms
 *                                                   (expires in 15 minutes)
 *   ["device_link_mails", adminId]                  WindowCount: such mails sent in an hour
 *   ["device_link_requests", addressBucket]         WindowCount: requests from one client address
 *                                                   in an hour
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
 *   ["settings", "require_two_factor"]              true: every admin must sign in with a code
 *
 * Clocks (kv/clock.ts)
 *   ["clock_heartbeat", processId]                  { at }: the process's clock at its last
 *                                                   heartbeat (removed by others once it is silent)
 *
 * Demo data (kv/seed.ts, kv/demo/)
 *   ["demo_seed"]                                   ISO time the demo set was claimed, so two
 *                                                   processes starting at once seed it only once
 *
 * E-mail job alerts (kv/alerts.ts). An address is kept only while it has an alert.
 *   ["alerts", id]                                  Alert and its schemaVersion; a pending one
 *                                                   expires PENDING_ALERT_DAYS after it was asked
 *   ["alert_addresses", email]                      AlertAddress: the ids of the address's alerts
 *                                                   and its own random id (expires with its alerts
 *                                                   while all are pending)
 *   ["alert_address_ids", addressId]                AddressById: the address a manage link names
 *                                                   by its id; written, expiring and deleted with
 *                                                   the address's record
 *   ["alert_tokens", sha256Hex]                     AlertToken: what a link in a mail may do; only
 *                                                   the token's hash is kept, and no address: a
 *                                                   manage link names the address's id (confirm:
 *                                                   expires after PENDING_ALERT_DAYS; unsubscribe
 *                                                   and manage: after MAIL_LINK_DAYS)
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

/**
 * Whose failed sign-ins a count is: one address, one account tried from one address, or one
 * account tried from anywhere; or the two-factor codes one account was sent from browsers it does
 * not know (`codes`). An account is named by the keyed hash of its e-mail.
 */
export type FailureScope =
  | { account?: undefined; address: string; codes?: undefined }
  | { account: string; address: string; codes?: undefined }
  | { account: string; address?: undefined; codes?: undefined }
  | { account?: undefined; address?: undefined; codes: string };

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
  /** Active and dump jobs with an expiry, by the moment it passes: what the lifecycle closes. */
  jobsByExpiry: () => ["jobs_by_expiry"] as const,
  jobByExpiry: (expiresMs: number, id: string) => ["jobs_by_expiry", expiresMs, id] as const,
  jobByLink: (normalisedLink: string) => ["jobs_by_link", normalisedLink] as const,
  jobsMeta: () => ["jobs_meta"] as const,
  jobsChange: (revision: number) => ["jobs_changes", revision] as const,
  jobCounter: (id: string, counter: "views" | "clicks") => ["job_counter", id, counter] as const,
  snapshotHead: () => ["catalogue_snapshot"] as const,
  snapshotAllChunks: () => ["catalogue_snapshot_chunks"] as const,
  snapshotChunks: (id: string) => ["catalogue_snapshot_chunks", id] as const,
  snapshotChunk: (id: string, n: number) => ["catalogue_snapshot_chunks", id, n] as const,
  snapshotLease: () => ["catalogue_snapshot_lease"] as const,

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
    scope.codes !== undefined
      ? ["login_failures", "account_codes", scope.codes] as const
      : scope.account === undefined
      ? ["login_failures", "address", scope.address] as const
      : scope.address === undefined
      ? ["login_failures", "account", scope.account] as const
      : ["login_failures", "account_address", scope.account, scope.address] as const,
  knownDevice: (adminId: string, deviceHash: string) =>
    ["known_devices", adminId, deviceHash] as const,
  passwordReset: (hash: string) => ["password_resets", hash] as const,
  passwordResetsOfAdmin: (adminId: string) => ["password_resets_by_admin", adminId] as const,
  passwordResetOfAdmin: (adminId: string, hash: string) =>
    ["password_resets_by_admin", adminId, hash] as const,
  passwordResetMails: (adminId: string) => ["password_reset_mails", adminId] as const,
  passwordResetRequests: (bucket: string) => ["password_reset_requests", bucket] as const,
  deviceLink: (hash: string) => ["device_links", hash] as const,
  deviceLinkMails: (adminId: string) => ["device_link_mails", adminId] as const,
  deviceLinkRequests: (bucket: string) => ["device_link_requests", bucket] as const,

  config: (name: "jwt_secret" | "main_admin_secret") => ["config", name] as const,
  setting: (name: "require_two_factor") => ["settings", name] as const,

  activities: () => ["activity"] as const,
  activity: (id: string) => ["activity", id] as const,
  jobActivity: (jobId: string) => ["activity_by_job", jobId] as const,
  jobActivityEntry: (jobId: string, id: string) => ["activity_by_job", jobId, id] as const,
  restoreInProgress: () => ["restore_in_progress"] as const,
  /**
   * Every table whose entries expire within two days: the sign-in throttle's counts, the mailed
   * links with their indexes and counts, the job change log, and the analytics' visitor salts and
   * per-visitor markers. What no dump holds (kv/backup.ts).
   */
  shortLivedTables: (): Deno.KvKey[] => [
    ["login_failures"],
    ["password_resets"],
    ["password_resets_by_admin"],
    ["password_reset_mails"],
    ["password_reset_requests"],
    ["device_links"],
    ["device_link_mails"],
    ["device_link_requests"],
    ["jobs_changes"],
    ["analytics_salt"],
    ["analytics_visitors"],
    ["analytics_networks"],
    ["analytics_seen"],
    ["analytics_searched"],
  ],

  clockHeartbeats: () => ["clock_heartbeat"] as const,
  clockHeartbeat: (processId: string) => ["clock_heartbeat", processId] as const,
  alert: (id: string) => ["alerts", id] as const,
  alertAddress: (email: string) => ["alert_addresses", email] as const,
  alertAddressById: (id: string) => ["alert_address_ids", id] as const,
  alertToken: (hash: string) => ["alert_tokens", hash] as const,
  alertsDue: () => ["alerts_due"] as const,
  alertDue: (dueAtMs: number, id: string) => ["alerts_due", dueAtMs, id] as const,
  alertConfirmations: (email: string) => ["alert_confirmations", email] as const,
  alertRequests: (bucket: string) => ["alert_requests", bucket] as const,
  alertTotal: (field: "confirmed") => ["alert_totals", field] as const,
  alertDays: () => ["alert_day"] as const,
  /** Every alert table but the per-day totals: what a dump leaves out unless asked (kv/backup.ts). */
  alertTables: (): Deno.KvKey[] => [
    ["alerts"],
    ["alert_addresses"],
    ["alert_address_ids"],
    ["alert_tokens"],
    ["alerts_due"],
    ["alert_confirmations"],
    ["alert_requests"],
    ["alert_totals"],
  ],
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
  //   ["analytics_salt", day]                        the day's secret visitor salt (expires when
  //                                                  the day is older than yesterday; never dumped)
  //   ["analytics_visitors", day, hash]              null: this visitor is counted (expires in 48 h)
  //   ["analytics_networks", day, hash]              number: visitors admitted from one address
  //                                                   (an IPv6 /64) that day (expires in 48 h)
  //   ["analytics_seen", day, visitor, kind, _id]    null: this visitor's view or click of the job
  //                                                   is counted that day (expires in 48 h)
  //   ["analytics_dim_day", day, dimension, value, field]
  //                                                  a dimension's counts on one day: sources,
  //                                                  utm_source, utm_campaign (field n: visits)
  //                                                  and searches (n: searches, zero: searches
  //                                                  that found nothing, results: jobs found)
  //   ["analytics_dim_count", day, dimension]        number: distinct values admitted that day
  //   ["analytics_dim_pack", day, dimension]         a past day's counts of a dimension in one
  //                                                  record with the day's writes counter they
  //                                                  were read at, so a report reads one key a day
  //   ["analytics_job_source", _id, day, source]     views of one job on one day by source
  //   ["analytics_searched", day, visitor, dimension, value]
  //                                                  null: this visitor's search is counted under
  //                                                  the dimension that day (expires in 48 h)
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
  analyticsSalts: () => ["analytics_salt"] as const,
  analyticsSalt: (day: string) => ["analytics_salt", day] as const,
  analyticsVisitors: (day: string) => ["analytics_visitors", day] as const,
  analyticsVisitor: (day: string, hash: string) => ["analytics_visitors", day, hash] as const,
  analyticsNetwork: (day: string, hash: string) => ["analytics_networks", day, hash] as const,
  analyticsSeen: (day: string, visitor: string, kind: "views" | "clicks", id: string) =>
    ["analytics_seen", day, visitor, kind, id] as const,
  analyticsDimDays: (day: string, dimension: string) =>
    ["analytics_dim_day", day, dimension] as const,
  analyticsDimDay: (day: string, dimension: string, value: string, field: string) =>
    ["analytics_dim_day", day, dimension, value, field] as const,
  analyticsDimPack: (day: string, dimension: string) =>
    ["analytics_dim_pack", day, dimension] as const,
  analyticsDimCount: (day: string, dimension: string) =>
    ["analytics_dim_count", day, dimension] as const,
  analyticsJobSources: (id: string) => ["analytics_job_source", id] as const,
  analyticsJobSource: (id: string, day: string, source: string) =>
    ["analytics_job_source", id, day, source] as const,
  analyticsSearched: (day: string, visitor: string, dimension: string, value: string) =>
    ["analytics_searched", day, visitor, dimension, value] as const,
} as const;
