/** The admin session: the stored token, the profile it resolves to, permissions. */
import { createContext, use, useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, isDefinitive, tokenStore } from "./api.ts";
import type { Admin } from "./types.ts";
import { can } from "../../kv/permissions.ts";

export { can };

export function useToken(): string | null {
  return useSyncExternalStore(tokenStore.subscribe, tokenStore.get);
}

export const profileKey = ["profile"] as const;

/**
 * The signed-in admin: no token means signed out; with a token the profile is fetched, and a failed
 * fetch drops the token (a 401 already did through the API client; anything else does it here). A
 * request the browser dropped without an answer (offline, or the page being left) says nothing
 * about the session, so the token stays and the screen offers to try again.
 */
export function useSession() {
  const token = useToken();
  const profile = useQuery({
    queryKey: [...profileKey, token],
    queryFn: async () => {
      try {
        return await api.get<Admin>("/admin/profile");
      } catch (error) {
        if (isDefinitive(error)) tokenStore.set(null);
        throw error;
      }
    },
    enabled: token !== null,
    retry: false,
    staleTime: 60_000,
    // The main admin may change this account's permissions meanwhile: coming back to the tab
    // reads them again, so the menus follow.
    refetchOnWindowFocus: true,
  });
  return {
    token,
    admin: token ? profile.data : undefined,
    resolving: token !== null && profile.isPending,
    unreachable: token !== null && profile.isError,
    retry: () => profile.refetch(),
  };
}

/**
 * The admin the guarded layout has resolved, handed to its screens. A screen reads it from here,
 * not from the token: when the session ends (in this tab or another) a screen may render once more
 * before the layout swaps it for the sign-in page, and it must not fail in that moment.
 */
export const SignedInAdmin = createContext<Admin | null>(null);

/** The signed-in admin, inside the guarded layout (which renders nothing until it is known). */
export function useAdmin(): Admin {
  const admin = use(SignedInAdmin);
  if (!admin) throw new Error("useAdmin outside the signed-in layout");
  return admin;
}
