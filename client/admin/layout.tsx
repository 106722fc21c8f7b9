/**
 * The signed-in frame of every admin screen, behind the auth guard:
 * a spinner while the session resolves, the sign-in page when signed out.
 */
import { useState } from "react";
import { Link, Navigate, Outlet, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api, tokenStore } from "./api.ts";
import { can, SignedInAdmin, useSession } from "./session.ts";
import { AuthSpinner } from "./spinner.tsx";
import { Dialog } from "./ui.tsx";
import { ProfileForm } from "./profile.tsx";
import { TwoFactorPanel } from "./two-factor.tsx";
import type { Admin, Permission } from "./types.ts";
import { PERMISSION_ENTRIES, type PermissionPath } from "../../kv/permissions.ts";

interface NavItem {
  to: "/admin/dashboard" | "/admin/activity" | PermissionPath;
  label: string;
  permission?: Permission;
  mainOnly?: boolean;
}

const NAV: NavItem[] = [
  { to: "/admin/dashboard", label: "Dashboard" },
  ...PERMISSION_ENTRIES.flatMap(({ name, nav }) =>
    nav.map((link) => ({ ...link, permission: name }))
  ),
  { to: "/admin/activity", label: "Activity Log", mainOnly: true },
];

export function AdminLayout() {
  const { token, admin, resolving, unreachable, retry } = useSession();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const editProfile = () => {
    setDrawerOpen(false);
    setProfileOpen(true);
  };
  if (!token) return <Navigate to="/admin/login" replace />;
  if (unreachable) {
    return (
      <div role="alert" className="mx-auto mt-24 max-w-sm p-6 text-center">
        <p className="text-slate-700">The server could not be reached.</p>
        <button type="button" className="btn-primary mt-4" onClick={() => retry()}>
          Try again
        </button>
      </div>
    );
  }
  if (resolving || !admin) return <AuthSpinner />;
  return (
    <div className="min-h-screen md:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <aside
        aria-label="Sidebar"
        className="hidden w-64 shrink-0 border-r border-slate-200 bg-white md:block"
      >
        <div className="sticky top-0 flex h-screen flex-col">
          <Sidebar admin={admin} onEditProfile={editProfile} />
        </div>
      </aside>
      <header className="flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3 md:hidden">
        <Brand />
        <button
          type="button"
          className="btn-icon"
          aria-label="Open menu"
          onClick={() => setDrawerOpen(true)}
        >
          <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true">
            <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
      </header>
      <Dialog open={drawerOpen} onClose={() => setDrawerOpen(false)} title="Navigation" drawer>
        <div className="flex justify-end px-3 pt-3">
          <button
            type="button"
            className="btn-icon"
            aria-label="Close menu"
            onClick={() => setDrawerOpen(false)}
          >
            <svg viewBox="0 0 24 24" className="size-6" aria-hidden="true">
              <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" />
            </svg>
          </button>
        </div>
        <Sidebar
          admin={admin}
          onNavigate={() => setDrawerOpen(false)}
          onEditProfile={editProfile}
        />
      </Dialog>
      <Dialog open={profileOpen} onClose={() => setProfileOpen(false)} title="Edit Profile">
        <ProfileForm admin={admin} onDone={() => setProfileOpen(false)} />
        <TwoFactorPanel admin={admin} />
      </Dialog>
      <main id="main" className="min-w-0 flex-1 p-4 md:p-8">
        <SignedInAdmin value={admin}>
          <Outlet />
        </SignedInAdmin>
      </main>
    </div>
  );
}

function Brand() {
  return (
    <div>
      <p className="text-lg font-bold text-indigo-700">CareerEdge</p>
      <p className="text-xs text-slate-600">Admin Portal</p>
    </div>
  );
}

function Sidebar({ admin, onNavigate, onEditProfile }: {
  admin: Admin;
  onNavigate?: () => void;
  onEditProfile: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = async () => {
    // The session ends on this device whatever the server answers.
    await api.post("/admin/logout").catch(() => {});
    tokenStore.set(null);
    queryClient.clear();
    toast.success("Logged out successfully");
    await navigate({ to: "/admin/login" });
  };
  return (
    <>
      {/* In the small-screen drawer the top bar behind it already shows the brand. */}
      {!onNavigate && (
        <div className="px-6 py-5">
          <Brand />
        </div>
      )}
      <nav aria-label="Admin" className="flex-1 px-3">
        <ul className="space-y-1">
          {NAV.filter((item) =>
            (!item.permission || can(admin, item.permission)) &&
            (!item.mainOnly || admin.role === "main_admin")
          ).map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                onClick={onNavigate}
                activeOptions={{ exact: true }}
                className="block rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 aria-[current=page]:bg-indigo-50 aria-[current=page]:text-indigo-700"
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t border-slate-200 px-6 py-4">
        <p className="truncate text-sm font-semibold text-slate-900">{admin.username}</p>
        <p className="truncate text-xs text-slate-600">{admin.email}</p>
        <span className="mt-2 inline-block rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-800">
          {admin.role === "main_admin" ? "Main Admin" : "Admin"}
        </span>
        <button type="button" className="btn-secondary mt-3 w-full" onClick={onEditProfile}>
          Edit Profile
        </button>
        <button type="button" className="btn-secondary mt-2 w-full" onClick={logout}>
          Logout
        </button>
      </div>
    </>
  );
}
