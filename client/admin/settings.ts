/**
 * The product's figures the admin app needs (`ADMIN_SETTINGS` in `kv/constants.ts`), read at run
 * time from the JSON the admin page carries rather than built into the bundle.
 */
import type { AdminSettings } from "../../kv/constants.ts";

export const ADMIN_SETTINGS_ID = "admin-settings";

let current: AdminSettings | null = null;

/** Sets the figures where there is no admin page to read them from (a render outside the browser). */
export function provideAdminSettings(settings: AdminSettings): void {
  current = settings;
}

export function adminSettings(): AdminSettings {
  if (current) return current;
  const text = globalThis.document?.getElementById(ADMIN_SETTINGS_ID)?.textContent;
  if (!text) throw new Error("The admin page carries no settings");
  return current = JSON.parse(text) as AdminSettings;
}
