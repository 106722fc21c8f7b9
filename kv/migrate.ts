/**
 * `deno task db:migrate`: brings every kind of stored record to its current schema version, kind
 * after kind, each record in an atomic write of its own (kv/schema-version.ts), so the whole run is
 * resumable and a second run changes nothing.
 */
import { ADMIN_SCHEMA_VERSION, upgradeAdmins } from "./admins.ts";
import { SESSION_SCHEMA_VERSION, upgradeSessions } from "./sessions.ts";
import { ACTIVITY_SCHEMA_VERSION, upgradeActivity } from "./activity.ts";
import { upgradeJobRefs } from "./analytics/recording.ts";
import { JOB_REF_SCHEMA_VERSION } from "./analytics/types.ts";
import { type LinkConflict, migrateJobs } from "./jobs/migrate.ts";
import { JOB_SCHEMA_VERSION } from "./jobs/version.ts";
import type { UpgradeCount } from "./schema-version.ts";

/** What the migration did to one kind of record. */
export interface KindReport extends UpgradeCount {
  /** The kind as the report names it: "Jobs", "Admins", ... */
  kind: string;
  version: number;
}

export interface DatabaseMigration {
  kinds: KindReport[];
  /** Active jobs left without their hiring link's claim (kv/jobs/migrate.ts). */
  conflicts: LinkConflict[];
  /** Jobs whose pay was read again from their package text (kv/jobs/migrate.ts). */
  payRead: number;
}

/** Upgrades every kind; `retentionDays` and `now` give activity records and sessions their expiry. */
export async function migrateDatabase(
  kv: Deno.Kv,
  { retentionDays, now }: { retentionDays: number; now: Date },
): Promise<DatabaseMigration> {
  const { conflicts, payRead, ...jobs } = await migrateJobs(kv);
  const kinds: KindReport[] = [
    { kind: "Jobs", version: JOB_SCHEMA_VERSION, ...jobs },
    { kind: "Admins", version: ADMIN_SCHEMA_VERSION, ...await upgradeAdmins(kv) },
    { kind: "Sessions", version: SESSION_SCHEMA_VERSION, ...await upgradeSessions(kv, now) },
    {
      kind: "Activity records",
      version: ACTIVITY_SCHEMA_VERSION,
      ...await upgradeActivity(kv, retentionDays, now),
    },
    { kind: "Analytics job names", version: JOB_REF_SCHEMA_VERSION, ...await upgradeJobRefs(kv) },
  ];
  return { kinds, conflicts, payRead };
}

/** The report's line for one kind. */
export function kindLine({ kind, scanned, upgraded, version, current }: KindReport): string {
  return `${kind}: ${scanned} read, ${upgraded} upgraded to version ${version}, ${current} already at it.`;
}
