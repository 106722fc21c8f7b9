/** The signed-in admin's own profile: username, e-mail and password (PUT /api/admin/profile). */
import { type FormEvent, useId, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { updateProfileSchema } from "../../kv/schemas.ts";
import { api, messageOf, tokenStore } from "./api.ts";
import { profileKey } from "./session.ts";
import type { Admin } from "./types.ts";

type Field = "username" | "email" | "password" | "currentPassword";

export function ProfileForm({ admin, onDone }: { admin: Admin; onDone: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<Field, string>>({
    username: admin.username,
    email: admin.email,
    password: "",
    currentPassword: "",
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Only what changed is sent; a blank new password means the password stays.
    const parsed = updateProfileSchema.safeParse({
      username: values.username !== admin.username ? values.username : undefined,
      email: values.email !== admin.email ? values.email : undefined,
      password: values.password || undefined,
      currentPassword: values.currentPassword || undefined,
    });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await api.put<{ message: string; admin: Admin }>(
        "/admin/profile",
        parsed.data,
      );
      queryClient.setQueryData([...profileKey, tokenStore.get()], answer.admin);
      toast.success(answer.message);
      onDone();
    } catch (error) {
      toast.error(messageOf(error, "Profile update failed"));
    } finally {
      setBusy(false);
    }
  };

  const field = (name: Field, label: string, type: string, autoComplete: string) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="field-label">{label}</label>
      <input
        id={`${id}-${name}`}
        type={type}
        autoComplete={autoComplete}
        className="field"
        value={values[name]}
        onChange={(event) => setValues({ ...values, [name]: event.target.value })}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
      />
      {errors[name] && (
        <p id={`${id}-${name}-error`} className="mt-1 text-sm text-red-700">{errors[name]}</p>
      )}
    </div>
  );

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {field("username", "Username", "text", "username")}
      {field("email", "Email", "email", "email")}
      {field("password", "New password (leave blank to keep)", "password", "new-password")}
      {field("currentPassword", "Current password", "password", "current-password")}
      <div className="flex justify-end gap-3 pt-2">
        <button type="button" className="btn-secondary" onClick={onDone}>Cancel</button>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save Profile"}
        </button>
      </div>
    </form>
  );
}
