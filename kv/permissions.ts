/**
 * The permission table: every admin permission declared once, in the order the portal lists them,
 * and the one permission rule. The stored flags and their check (`kv/schemas.ts`), the server's
 * refusals (`server/auth.ts`), the admin nav and dashboard actions, the Create Admin and Edit
 * Permissions checkboxes, the Manage Admins badges and the activity log's wording are built from
 * it. See docs/adding-a-permission.md.
 */
import type { Admin } from "./schemas.ts";

/** A link of the admin portal that only holders of one permission see. */
interface AdminLink<To extends string = `/admin/${string}`> {
  /** An admin route path; the admin app's typed links check it against its route tree. */
  to: To;
  label: string;
}

interface PermissionEntry<To extends string = `/admin/${string}`> {
  /** The checkbox of Create Admin and Edit Permissions, and the activity log's "granted ...". */
  label: string;
  /** The Manage Admins summary badge; permissions sharing one show it once. */
  badge: string;
  /** The 403 message of an API call that needs the permission. */
  denied: string;
  /** Ticked on a new admin unless the Create Admin form or the API says otherwise. */
  default: boolean;
  /** The sidebar links it opens, in order. */
  nav: readonly AdminLink<To>[];
  /** The dashboard's Quick Actions card entry it opens. */
  quickAction?: AdminLink<To> & { text: string };
}

export const PERMISSION_TABLE = {
  canCreateJobs: {
    label: "Create Jobs",
    badge: "Jobs",
    denied: "You do not have permission to manage jobs",
    default: true,
    nav: [
      { to: "/admin/jobs", label: "Manage Jobs" },
      { to: "/admin/jobs/dump", label: "Dump Jobs" },
    ],
    quickAction: {
      to: "/admin/jobs/create",
      label: "Create New Job",
      text: "Post a new job listing",
    },
  },
  canDeleteJobs: {
    label: "Delete Jobs",
    badge: "Jobs",
    denied: "You do not have permission to delete jobs",
    default: true,
    nav: [],
  },
  canViewAnalytics: {
    label: "View Analytics",
    badge: "Analytics",
    denied: "You don't have permission to view analytics",
    default: true,
    nav: [{ to: "/admin/analytics", label: "Analytics" }],
    quickAction: {
      to: "/admin/analytics",
      label: "View Analytics",
      text: "See traffic and job performance",
    },
  },
  canManageAdmins: {
    label: "Manage Admins",
    badge: "Admins",
    denied: "Only the main admin can manage admin accounts",
    default: false,
    nav: [{ to: "/admin/admins", label: "Manage Admins" }],
    quickAction: {
      to: "/admin/admins",
      label: "Manage Admins",
      text: "Add or remove admin users",
    },
  },
} as const satisfies Record<string, PermissionEntry>;

export type Permission = keyof typeof PERMISSION_TABLE;
export type Permissions = Record<Permission, boolean>;

type Table = typeof PERMISSION_TABLE;
/** The admin paths the table links to, as literals, so the admin app's links stay typed. */
export type PermissionPath = {
  [P in Permission]:
    | Table[P]["nav"][number]["to"]
    | (Table[P] extends { quickAction: { to: infer To } } ? To : never);
}[Permission];

export const PERMISSIONS = Object.keys(PERMISSION_TABLE) as Permission[];

/** Each permission with its entry, in table order. */
export const PERMISSION_ENTRIES = PERMISSIONS.map((name) => ({
  name,
  ...(PERMISSION_TABLE[name] as PermissionEntry<PermissionPath>),
}));

function flagsOf(value: (entry: PermissionEntry<PermissionPath>) => boolean): Permissions {
  return Object.fromEntries(
    PERMISSION_ENTRIES.map((entry) => [entry.name, value(entry)]),
  ) as Permissions;
}

/** The flags of the Create New Admin form before any change. */
export const DEFAULT_PERMISSIONS: Permissions = flagsOf((entry) => entry.default);
/** The flags of the main admin. */
export const ALL_PERMISSIONS: Permissions = flagsOf(() => true);
/** What an account holds of a permission added after it was stored: nothing. */
export const NO_PERMISSIONS: Permissions = flagsOf(() => false);

/**
 * The one permission rule, shared by the server's checks and the admin app's menus and screens:
 * a main admin may do everything, any other admin only what its flag allows. No admin (not yet
 * signed in) may do nothing.
 */
export function can(
  admin: Pick<Admin, "role" | "permissions"> | undefined,
  permission: Permission,
): boolean {
  return !!admin && (admin.role === "main_admin" || admin.permissions[permission] === true);
}

/** The Manage Admins summary: "All" for a main admin, else each held permission's badge once. */
export function permissionBadges(admin: Pick<Admin, "role" | "permissions">): string[] {
  if (admin.role === "main_admin") return ["All"];
  const held = PERMISSION_ENTRIES.filter(({ name }) => admin.permissions[name]);
  return [...new Set(held.map(({ badge }) => badge))];
}
