/**
 * The one permission rule, shared by the server's checks and the admin app's menus and screens:
 * a main admin may do everything, any other admin only what its flag allows. No admin (not yet
 * signed in) may do nothing.
 */
import type { Admin, Permission } from "./schemas.ts";

export function can(
  admin: Pick<Admin, "role" | "permissions"> | undefined,
  permission: Permission,
): boolean {
  return !!admin && (admin.role === "main_admin" || admin.permissions[permission] === true);
}
