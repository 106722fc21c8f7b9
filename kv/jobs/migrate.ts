/**
 * Upgrading stored job records to the current schema version (`deno task db:migrate`). Each job is
 * rewritten alone in one atomic operation, checked against its record, its hiring-link claims and
 * `jobs_meta` (whose revision it bumps so every process's caches follow), so the upgrade can run
 * beside a live server, be stopped at any point and run again: a job already upgraded is left as
 * it is, and a second run changes nothing.
 *
 * Version 1 (no version field) to 2: the hiring link takes its canonical spelling, and its claim
 * among active jobs moves from the key the old spelling rules made to the canonical one. Two
 * active jobs whose links become the same keep the claim with the older job; the other stays as
 * it was otherwise, and is reported for an admin to correct.
 *
 * Version 2 to 3: the claim moves to the key without scheme, `www.` and default port, with the
 * same rule for two active jobs that now claim one key; and the job takes its pay (read from the
 * package), work mode (from the location) and role category (from the role and skills), as reading
 * an older record derives them.
 *
 * At any version: a job whose pay no admin set takes the pay its package text reads as now, when
 * the pay reader has learnt to read it otherwise since the job was written. (Work mode and
 * category are not read again: a stored value may be an admin's choice.)
 */
import { keys } from "../keys.ts";
import { retrying } from "../atomic.ts";
import type { Job } from "../schemas.ts";
import { type Pay, readPay } from "./pay.ts";
import { normaliseHiringLink, versionTwoLinkKey } from "./validate.ts";
import { commitMeta, freshMeta, type JobsMeta, timeOf, writeJob } from "./records.ts";
import { JOB_SCHEMA_VERSION, type StoredJob, withoutVersion } from "./version.ts";
import { UPGRADE_BATCH, type UpgradeCount, versionOf } from "../schema-version.ts";

/** An active job left without its hiring link's claim, because an older active job has the link. */
export interface LinkConflict {
  jobId: string;
  role: string;
  companyName: string;
  hiringLink: string;
  /** The readable id of the older job that keeps the claim. */
  keptBy: string;
}

/** What a migration did: job records read, upgraded and already current, and the claims lost. */
export interface MigrationReport extends UpgradeCount {
  conflicts: LinkConflict[];
  /** Jobs at the current version whose pay was read again from their package text. */
  payRead: number;
}

/**
 * The claim key version 1 records were indexed by: the link as the URL parser writes it, without
 * its fragment and trailing slashes.
 */
export function versionOneLinkKey(link: string): string {
  if (!URL.canParse(link.trim())) return link.trim();
  const url = new URL(link.trim());
  url.hash = "";
  const text = url.href;
  if (url.search === "" && text.endsWith("/")) return text.replace(/\/+$/, "");
  return text.replace(/\/+\?/, "?");
}

/** Which of two jobs came first: the earlier created, ties broken by id. */
const isOlder = (a: Job, b: Job) =>
  timeOf(a.createdAt) < timeOf(b.createdAt) ||
  (timeOf(a.createdAt) === timeOf(b.createdAt) && a._id < b._id);

/** Upgrades every job record below the current version; see the module comment. */
export async function migrateJobs(kv: Deno.Kv): Promise<MigrationReport> {
  const report: MigrationReport = {
    scanned: 0,
    upgraded: 0,
    current: 0,
    conflicts: [],
    payRead: 0,
  };
  for await (
    const entry of kv.list<StoredJob>({ prefix: keys.jobs() }, { batchSize: UPGRADE_BATCH })
  ) {
    report.scanned++;
    if (versionOf(entry.value) >= JOB_SCHEMA_VERSION) {
      report.current++;
      if (
        payReadNow(withoutVersion(entry.value)) && await readPayAgain(kv, entry.key[1] as string)
      ) {
        report.payRead++;
      }
      continue;
    }
    const outcome = await upgradeJob(kv, entry.key[1] as string);
    if (outcome === "current") report.current++;
    else if (outcome !== "gone") {
      report.upgraded++;
      // One pair of jobs can be met from both sides; the younger is reported once.
      const known = report.conflicts.some((conflict) => conflict.jobId === outcome?.jobId);
      if (outcome && !known) report.conflicts.push(outcome);
    }
  }
  return report;
}

/**
 * Rewrites one job of an older version at the current one. Says "current" when another run upgraded it first,
 * "gone" when it was deleted meanwhile, else the claim conflict it met, or null.
 */
function upgradeJob(kv: Deno.Kv, id: string): Promise<LinkConflict | "current" | "gone" | null> {
  return retrying(async () => {
    const [metaEntry, jobEntry] = await kv.getMany<[JobsMeta, StoredJob]>([
      keys.jobsMeta(),
      keys.job(id),
    ]);
    if (!jobEntry.value) return "gone";
    if (versionOf(jobEntry.value) >= JOB_SCHEMA_VERSION) return "current";
    const old = withoutVersion(jobEntry.value);
    const job: Job = { ...old, hiringLink: versionTwoLinkKey(old.hiringLink) };
    const oldLink = versionOf(jobEntry.value) === 1
      ? versionOneLinkKey(old.hiringLink)
      : versionTwoLinkKey(old.hiringLink);
    const newLink = normaliseHiringLink(job.hiringLink);
    const [oldClaim, newClaim] = await kv.getMany<[string, string]>([
      keys.jobByLink(oldLink),
      keys.jobByLink(newLink),
    ]);
    const op = kv.atomic().check(jobEntry, oldClaim, newClaim);
    if (oldClaim.value === id && oldLink !== newLink) op.delete(oldClaim.key);

    let conflict: LinkConflict | null = null;
    let claimLink = job.status === "active";
    const holder = claimLink && newClaim.value && newClaim.value !== id
      ? (await kv.get<StoredJob>(keys.job(newClaim.value))).value
      : null;
    if (holder?.status === "active") {
      const other = withoutVersion(holder);
      if (isOlder(other, job)) {
        claimLink = false;
        conflict = { ...conflictOf(job), keptBy: other.jobId };
      } else conflict = { ...conflictOf(other), keptBy: job.jobId };
    }
    // The job's other index entries keep their keys: only the record and the link claim change.
    writeJob(op, job, null, false, claimLink);
    commitMeta(op, metaEntry, freshMeta(metaEntry), [id]);
    return (await op.commit()).ok ? conflict : undefined;
  });
}

const samePay = (a: Pay | null, b: Pay | null) =>
  a === b || (a !== null && b !== null && a.min === b.min && a.max === b.max &&
    a.period === b.period && a.currency === b.currency);

/** The pay the job's package text reads as now, when no admin set it and it reads otherwise. */
function payReadNow(job: Job): { pay: Pay | null } | null {
  if (job.payOverride) return null;
  const pay = readPay(job.estPackage);
  return samePay(pay, job.pay ?? null) ? null : { pay };
}

/**
 * Rewrites a current job with the pay its package reads as now (`payReadNow`); false when that
 * changed nothing (another run, or an edit, came first) or the job is gone.
 */
function readPayAgain(kv: Deno.Kv, id: string): Promise<boolean> {
  return retrying(async () => {
    const [metaEntry, jobEntry] = await kv.getMany<[JobsMeta, StoredJob]>([
      keys.jobsMeta(),
      keys.job(id),
    ]);
    if (!jobEntry.value || versionOf(jobEntry.value) < JOB_SCHEMA_VERSION) return false;
    const job = withoutVersion(jobEntry.value);
    const now = payReadNow(job);
    if (!now) return false;
    const op = kv.atomic().check(jobEntry);
    // Only the record changes: its index entries and its link's claim keep their keys.
    writeJob(op, { ...job, pay: now.pay }, null, false, false);
    commitMeta(op, metaEntry, freshMeta(metaEntry), [id]);
    return (await op.commit()).ok ? true : undefined;
  });
}

function conflictOf(job: Job): Omit<LinkConflict, "keptBy"> {
  return {
    jobId: job.jobId,
    role: job.role,
    companyName: job.companyName,
    hiringLink: job.hiringLink,
  };
}
