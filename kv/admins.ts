/**
 * Admin accounts. The e-mail index and the one-main-admin marker are written in the same atomic
 * operation as the account, with checks, so two sign-ups can never share an e-mail and there is
 * never a second main admin.
 */
import { keys } from "./keys.ts";
import { newId, retrying } from "./atomic.ts";
import type { Admin, AdminRecord, AdminRole, Permissions } from "./schemas.ts";
import { NO_PERMISSIONS } from "./permissions.ts";
import { type ActivityAction, type ActivityTarget, type Audit, changedFields } from "./activity.ts";
import {
  stampedAt,
  unversioned,
  type UpgradeCount,
  upgradeRecords,
  type Versioned,
} from "./schema-version.ts";

/**
 * The schema version every stored account carries (see kv/schema-version.ts). Version 2 is version
 * 1 with its version written in; `deno task db:migrate` stamps older accounts.
 */
export const ADMIN_SCHEMA_VERSION = 2;

/** The record to write for an account. */
const storedAdmin = (admin: AdminRecord): Versioned<AdminRecord> =>
  stampedAt(admin, ADMIN_SCHEMA_VERSION);

/** Brings every stored account to the current version (`deno task db:migrate`). */
export function upgradeAdmins(kv: Deno.Kv): Promise<UpgradeCount> {
  return upgradeRecords<AdminRecord>(
    kv,
    keys.admins(),
    ADMIN_SCHEMA_VERSION,
    (admin) => ({ value: storedAdmin(admin) }),
  );
}

export interface NewAdmin {
  username: string;
  email: string;
  passwordHash: string;
  role: AdminRole;
  permissions: Permissions;
}

export type AdminWrite =
  | { ok: true; admin: AdminRecord }
  | { ok: false; reason: "not_found" | "email_taken" | "main_exists" | "refused" };

/** The account without its password hash, as every API answer shows it. */
export function publicAdmin(
  { passwordHash: _hidden, twoFactor, ...admin }: AdminRecord,
): Admin {
  return {
    ...admin,
    permissions: { ...NO_PERMISSIONS, ...admin.permissions },
    twoFactorEnabled: twoFactor?.enabled === true,
  };
}

/** How the activity log names an account. */
function adminTarget(admin: AdminRecord): ActivityTarget {
  return { kind: "admin", id: admin._id, label: admin.username };
}

/** What an account change is recorded as: the public fields that changed, never the hash. */
function accountChange(old: AdminRecord, admin: AdminRecord): Record<string, unknown> {
  return {
    ...changedFields(publicAdmin(old), publicAdmin(admin), ["updatedAt"]),
    ...(old.passwordHash !== admin.passwordHash ? { passwordChanged: true } : {}),
  };
}

export class AdminStore {
  constructor(private kv: Deno.Kv, private now: () => Date) {}

  async get(id: string): Promise<AdminRecord | null> {
    if (!id || id.length > 64) return null;
    const stored = (await this.kv.get<Versioned<AdminRecord>>(keys.admin(id))).value;
    return stored && unversioned(stored);
  }

  async getByEmail(email: string): Promise<AdminRecord | null> {
    const pointer = await this.kv.get<string>(keys.adminByEmail(email.toLowerCase()));
    return pointer.value ? await this.get(pointer.value) : null;
  }

  async hasMainAdmin(): Promise<boolean> {
    return (await this.kv.get(keys.mainAdmin())).value !== null;
  }

  /** Every account: the main admin first, then oldest first. */
  async list(): Promise<AdminRecord[]> {
    const admins: AdminRecord[] = [];
    for await (
      const entry of this.kv.list<Versioned<AdminRecord>>({ prefix: keys.admins() })
    ) admins.push(unversioned(entry.value));
    const rank = (admin: AdminRecord) => (admin.role === "main_admin" ? 0 : 1);
    return admins.sort((a, b) =>
      rank(a) - rank(b) || a.createdAt.localeCompare(b.createdAt) ||
      a.username.localeCompare(b.username)
    );
  }

  async create(input: NewAdmin, audit?: Audit): Promise<AdminWrite> {
    const now = this.now().toISOString();
    const admin: AdminRecord = {
      ...input,
      email: input.email.toLowerCase(),
      _id: newId(this.now()),
      isActive: true,
      lastLogin: null,
      createdAt: now,
      updatedAt: now,
    };
    const emailKey = keys.adminByEmail(admin.email);
    const op = this.kv.atomic().check({ key: emailKey, versionstamp: null })
      .set(keys.admin(admin._id), storedAdmin(admin)).set(emailKey, admin._id);
    if (admin.role === "main_admin") {
      op.check({ key: keys.mainAdmin(), versionstamp: null }).set(keys.mainAdmin(), admin._id);
    }
    audit?.add(op, "admin.create", adminTarget(admin), {
      after: { email: admin.email, role: admin.role, permissions: admin.permissions },
    });
    if ((await op.commit()).ok) return { ok: true, admin };
    if (admin.role === "main_admin" && await this.hasMainAdmin()) {
      return { ok: false, reason: "main_exists" };
    }
    return { ok: false, reason: "email_taken" };
  }

  /**
   * Applies a change to an account, moving its e-mail index when the e-mail changes; with `audit`
   * the write carries a record of it as `action`. The change is worked out from the account as it
   * is in the write, which is checked against that version; a change of null refuses it (such as a
   * one-time code another write spent first). A `guard` adds its own checks and writes to the
   * same atomic write (it is asked again on each retry); when it says no, nothing is written.
   */
  update(
    id: string,
    change: (admin: AdminRecord) => Partial<AdminRecord> | null,
    audit?: {
      audit: Audit;
      action: ActivityAction;
      guard?: (op: Deno.AtomicOperation) => Promise<boolean>;
    },
  ): Promise<AdminWrite> {
    return retrying(async () => {
      const entry = await this.kv.get<Versioned<AdminRecord>>(keys.admin(id));
      if (!entry.value) return { ok: false, reason: "not_found" } as const;
      const old = unversioned(entry.value);
      const changed = change(old);
      if (!changed) return { ok: false, reason: "refused" } as const;
      const admin: AdminRecord = {
        ...old,
        ...changed,
        _id: old._id,
        updatedAt: this.now().toISOString(),
      };
      admin.email = admin.email.toLowerCase();
      const op = this.kv.atomic().check(entry).set(keys.admin(id), storedAdmin(admin));
      if (admin.email !== old.email) {
        const emailKey = keys.adminByEmail(admin.email);
        const taken = await this.kv.get<string>(emailKey);
        if (taken.value) return { ok: false, reason: "email_taken" } as const;
        op.check(taken).set(emailKey, id).delete(keys.adminByEmail(old.email));
      }
      if (audit?.guard && !(await audit.guard(op))) {
        return { ok: false, reason: "refused" } as const;
      }
      audit?.audit.add(op, audit.action, adminTarget(admin), accountChange(old, admin));
      return (await op.commit()).ok ? { ok: true, admin } as const : undefined;
    });
  }

  /** Whether the main admin requires two-factor sign-in of every admin. */
  async twoFactorRequired(): Promise<boolean> {
    return (await this.kv.get<boolean>(keys.setting("require_two_factor"))).value === true;
  }

  /** Sets whether every admin must use two-factor sign-in, recorded as `settings.update`. */
  async requireTwoFactor(required: boolean, audit: Audit): Promise<void> {
    const op = this.kv.atomic().set(keys.setting("require_two_factor"), required);
    audit.add(op, "settings.update", null, { requireTwoFactor: required });
    await op.commit();
  }

  /** Deletes an account and its e-mail index; a main admin is never deleted here. */
  delete(id: string, audit?: Audit): Promise<AdminRecord | null> {
    return retrying(async () => {
      const entry = await this.kv.get<Versioned<AdminRecord>>(keys.admin(id));
      if (!entry.value) return null;
      const admin = unversioned(entry.value);
      const op = this.kv.atomic().check(entry).delete(keys.admin(id))
        .delete(keys.adminByEmail(admin.email));
      audit?.add(op, "admin.delete", adminTarget(admin), { before: publicAdmin(admin) });
      const ok = (await op.commit()).ok;
      return ok ? admin : undefined;
    });
  }
}
