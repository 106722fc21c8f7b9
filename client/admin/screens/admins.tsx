/**
 * Manage Admins: main admin only; list, create, edit permissions, activate/deactivate, turn off a
 * lost second factor, delete.
 */
import { type FormEvent, useEffect, useId, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { registerAdminSchema } from "../../../kv/schemas.ts";
import {
  DEFAULT_PERMISSIONS,
  PERMISSION_ENTRIES,
  permissionBadges,
  type Permissions,
} from "../../../kv/permissions.ts";
import { api, messageOf } from "../api.ts";
import { useAdmin } from "../session.ts";
import { FormButtons, TextField, validate } from "../components/form.tsx";
import { ScrollTable } from "../components/table.tsx";
import { adminsQuery, queryKeys } from "../queries.ts";
import {
  AccessDenied,
  ConfirmDialog,
  Dialog,
  formatDate,
  PageHeader,
  SkeletonRows,
} from "../ui.tsx";
import type { Admin } from "../types.ts";

export function AdminsScreen() {
  const me = useAdmin();
  if (me.role !== "main_admin") {
    return <AccessDenied reason="Only main admin can manage admin accounts" />;
  }
  return <AdminList />;
}

/** Manage Admins' writes from the list: activate or deactivate, delete, turn off two-factor. */
function useAdminChanges() {
  const queryClient = useQueryClient();
  const changed = () => queryClient.invalidateQueries({ queryKey: queryKeys.admins() });
  const logged = () => queryClient.invalidateQueries({ queryKey: ["activity"] });

  const toggle = useMutation({
    mutationFn: (admin: Admin) =>
      api.put(`/admin/${admin._id}/status`, { isActive: !admin.isActive }),
    onSuccess: (_, admin) =>
      toast.success(
        admin.isActive ? "Admin deactivated successfully" : "Admin activated successfully",
      ),
    onError: () => toast.error("Error updating admin status"),
    onSettled: changed,
  });
  const remove = useMutation({
    mutationFn: (admin: Admin) => api.delete(`/admin/${admin._id}`),
    onSuccess: () => toast.success("Admin deleted successfully"),
    onError: () => toast.error("Error deleting admin"),
    onSettled: changed,
  });
  const twoFactorOff = useMutation({
    mutationFn: (admin: Admin) => api.delete<{ message: string }>(`/admin/${admin._id}/two-factor`),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(messageOf(error, "Error turning off two-factor sign-in")),
    onSettled: () => {
      void changed();
      void logged();
    },
  });
  return { changed, logged, toggle, remove, twoFactorOff };
}

function AdminList() {
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Admin | null>(null);
  const [editing, setEditing] = useState<Admin | null>(null);
  const [unlocking, setUnlocking] = useState<Admin | null>(null);
  const list = useQuery(adminsQuery());
  useEffect(() => {
    if (list.error) toast.error("Error fetching admins");
  }, [list.error]);
  const { changed, logged, toggle, remove, twoFactorOff } = useAdminChanges();

  return (
    <>
      <PageHeader title="Manage Admins" subtitle="Admin accounts and what each may do">
        <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
          Add Admin
        </button>
      </PageHeader>
      <div className="card">
        <ScrollTable
          label="Admins"
          stacked
          className="w-full lg:min-w-[48rem]"
          headings={["Admin", "Role", "Permissions", "Last Login", "Status", "Actions"]}
        >
          {list.isPending
            ? <SkeletonRows columns={6} />
            : (list.data?.admins ?? []).map((admin) => (
              <AdminRow
                key={admin._id}
                admin={admin}
                toggling={toggle.isPending}
                onEdit={() => setEditing(admin)}
                onToggle={() => toggle.mutate(admin)}
                onTwoFactorOff={() => setUnlocking(admin)}
                onDelete={() => setDeleting(admin)}
              />
            ))}
        </ScrollTable>
      </div>
      <Dialog open={creating} onClose={() => setCreating(false)} title="Create New Admin">
        <CreateAdminForm
          onDone={() => {
            setCreating(false);
            void changed();
          }}
          onCancel={() => setCreating(false)}
        />
      </Dialog>
      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={`Edit Permissions – ${editing?.username ?? ""}`}
      >
        {editing && (
          <EditPermissionsForm
            admin={editing}
            onDone={() => {
              setEditing(null);
              void changed();
              void logged();
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Dialog>
      <ConfirmDialog
        open={unlocking !== null}
        title="Turn Off Two-Factor Sign-In"
        message={`Turn off two-factor sign-in for "${unlocking?.username}"? Do this for an admin who lost their authenticator app and their recovery codes. They are signed out everywhere and sign in with their password alone until they set it up again.`}
        confirmLabel="Turn Off"
        busy={twoFactorOff.isPending}
        onConfirm={() => {
          if (unlocking) twoFactorOff.mutate(unlocking);
          setUnlocking(null);
        }}
        onClose={() => setUnlocking(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Admin"
        message={`Are you sure you want to delete admin "${deleting?.username}"? This action cannot be undone.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

function AdminRow({ admin, ...actions }: { admin: Admin } & AdminActions) {
  return (
    <tr className="border-t border-slate-100">
      <td className="px-4 py-3">
        <p className="font-medium text-slate-900">{admin.username}</p>
        <p className="text-xs text-slate-600">{admin.email}</p>
      </td>
      <td data-label="Role" className="px-4 py-3">
        {admin.role === "main_admin" ? "Main Admin" : "Admin"}
      </td>
      <td data-label="Permissions" className="px-4 py-3">
        <ul className="flex flex-wrap gap-1">
          {permissionBadges(admin).map((badge) => (
            <li
              key={badge}
              className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-800"
            >
              {badge}
            </li>
          ))}
        </ul>
      </td>
      <td data-label="Last Login" className="px-4 py-3 whitespace-nowrap">
        {admin.lastLogin ? formatDate(admin.lastLogin) : "Never"}
      </td>
      <td data-label="Status" className="px-4 py-3">
        <div className="flex flex-wrap gap-1">
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${
              admin.isActive ? "bg-green-100 text-green-800" : "bg-red-100 text-red-800"
            }`}
          >
            {admin.isActive ? "Active" : "Inactive"}
          </span>
          {admin.twoFactorEnabled && (
            <span className="whitespace-nowrap rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700">
              Two-factor
            </span>
          )}
        </div>
      </td>
      <td data-label="Actions" className="px-4 py-3">
        {admin.role !== "main_admin" && <AdminRowActions admin={admin} {...actions} />}
      </td>
    </tr>
  );
}

interface AdminActions {
  /** A status change is on its way: no second one starts meanwhile. */
  toggling: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onTwoFactorOff: () => void;
  onDelete: () => void;
}

/** What the main admin may do to another admin's account. */
function AdminRowActions(
  { admin, toggling, onEdit, onToggle, onTwoFactorOff, onDelete }: { admin: Admin } & AdminActions,
) {
  return (
    <div className="flex flex-wrap gap-2">
      <button
        type="button"
        className="btn-secondary"
        aria-label={`Edit permissions of ${admin.username}`}
        onClick={onEdit}
      >
        Edit permissions
      </button>
      <button
        type="button"
        className="btn-secondary"
        disabled={toggling}
        aria-label={`${admin.isActive ? "Deactivate" : "Activate"} ${admin.username}`}
        onClick={onToggle}
      >
        {admin.isActive ? "Deactivate" : "Activate"}
      </button>
      {admin.twoFactorEnabled && (
        <button
          type="button"
          className="btn-secondary"
          aria-label={`Turn off two-factor sign-in of ${admin.username}`}
          onClick={onTwoFactorOff}
        >
          Turn off two-factor
        </button>
      )}
      <button
        type="button"
        className="btn-secondary text-red-700"
        aria-label={`Delete ${admin.username}`}
        onClick={onDelete}
      >
        Delete
      </button>
    </div>
  );
}

type Field = "username" | "email" | "password";

function CreateAdminForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const id = useId();
  const [values, setValues] = useState({ username: "", email: "", password: "" });
  const [permissions, setPermissions] = useState<Permissions>(DEFAULT_PERMISSIONS);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const data = validate(registerAdminSchema, { ...values, permissions }, setErrors);
    if (data === null) return;
    setBusy(true);
    try {
      await api.post("/admin/register", data);
      toast.success("Admin created successfully");
      onDone();
    } catch (error) {
      toast.error(messageOf(error, "Error creating admin"));
    } finally {
      setBusy(false);
    }
  };

  const field = (name: Field, label: string, type: string, autoComplete: string) => (
    <TextField
      id={`${id}-${name}`}
      label={label}
      type={type}
      autoComplete={autoComplete}
      required
      value={values[name]}
      error={errors[name]}
      onChange={(value) => setValues({ ...values, [name]: value })}
    />
  );

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {field("username", "Username", "text", "off")}
      {field("email", "Email", "email", "off")}
      {field("password", "Password", "password", "new-password")}
      <PermissionBoxes permissions={permissions} onChange={setPermissions} />
      <FormButtons busy={busy} label="Create Admin" busyLabel="Creating..." onCancel={onCancel} />
    </form>
  );
}

function PermissionBoxes({ permissions, onChange }: {
  permissions: Permissions;
  onChange: (permissions: Permissions) => void;
}) {
  return (
    <fieldset>
      <legend className="field-label">Permissions</legend>
      <div className="grid grid-cols-2 gap-2">
        {PERMISSION_ENTRIES.map(({ name, label }) => (
          <label key={name} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={permissions[name]}
              onChange={(event) =>
                onChange({ ...permissions, [name]: event.target.checked })}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** An admin's flags, changed from their next request on (the server reads them every time). */
function EditPermissionsForm({ admin, onDone, onCancel }: {
  admin: Admin;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [permissions, setPermissions] = useState<Permissions>(admin.permissions);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api.put(`/admin/${admin._id}/permissions`, { permissions });
      toast.success("Permissions updated successfully");
      onDone();
    } catch (error) {
      toast.error(messageOf(error, "Error updating permissions"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <p className="text-sm text-slate-600">
        {admin.username} ({admin.email}) gets the new permissions from their next action on.
      </p>
      <PermissionBoxes permissions={permissions} onChange={setPermissions} />
      <FormButtons busy={busy} label="Save Permissions" busyLabel="Saving..." onCancel={onCancel} />
    </form>
  );
}
