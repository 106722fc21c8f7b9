/**
 * The product's figures the admin app needs (`ADMIN_SETTINGS` in `kv/constants.ts`), read at run
 * time from the JSON the admin page carries in a meta element (routes/admin.tsx), as it carries the
 * site's time zone, rather than built into the bundle.
 */
import type { AdminSettings } from "../../kv/constants.ts";

export const ADMIN_SETTINGS_META = "admin-settings";

let current: AdminSettings | null = null;

/** Sets the figures where there is no admin page to read them from (a render outside the browser). */
export function provideAdminSettings(settings: AdminSettings): void {
  current = settings;
}

export function adminSettings(): AdminSettings {
  if (current) return current;
  const text = globalThis.document
    ?.querySelector<HTMLMetaElement>(`meta[name="${ADMIN_SETTINGS_META}"]`)?.content;
  if (!text) throw new Error("The admin page carries no settings");
  return current = JSON.parse(text) as AdminSettings;
}
