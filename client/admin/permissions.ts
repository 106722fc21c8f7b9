/** The permission flags as the portal names them, in the order its forms and records list them. */
import type { Permission } from "./types.ts";

export const PERMISSION_LABELS: { name: Permission; label: string }[] = [
  { name: "canCreateJobs", label: "Create Jobs" },
  { name: "canDeleteJobs", label: "Delete Jobs" },
  { name: "canViewAnalytics", label: "View Analytics" },
  { name: "canManageAdmins", label: "Manage Admins" },
];
