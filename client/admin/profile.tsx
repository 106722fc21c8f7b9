/** The signed-in admin's own profile: username, e-mail and password (PUT /api/admin/profile). */
import { type FormEvent, useId, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { updateProfileSchema } from "../../kv/schemas.ts";
import { MIN_ADMIN_PASSWORD } from "../../kv/constants.ts";
import { passwordPattern } from "../../kv/password-patterns.ts";
import { api, messageOf, tokenStore } from "./api.ts";
import { profileKey } from "./session.ts";
import { FormButtons, TextField, validate } from "./components/form.tsx";
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
    const data = validate(updateProfileSchema, {
      username: values.username !== admin.username ? values.username : undefined,
      email: values.email !== admin.email ? values.email : undefined,
      password: values.password || undefined,
      currentPassword: values.currentPassword || undefined,
    }, setErrors);
    if (data === null) return;
    setBusy(true);
    try {
      const answer = await api.put<{ message: string; admin: Admin }>(
        "/admin/profile",
        data,
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
    <TextField
      id={`${id}-${name}`}
      label={label}
      type={type}
      autoComplete={autoComplete}
      value={values[name]}
      error={errors[name]}
      onChange={(value) => setValues({ ...values, [name]: value })}
    />
  );

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {field("username", "Username", "text", "username")}
      {field("email", "Email", "email", "email")}
      {field("password", "New password (leave blank to keep)", "password", "new-password")}
      {values.password && <StrengthMeter password={values.password} />}
      {field(
        "currentPassword",
        "Current password (to change e-mail or password)",
        "password",
        "current-password",
      )}
      <FormButtons busy={busy} label="Save Profile" busyLabel="Saving..." onCancel={onDone} />
    </form>
  );
}

/**
 * A rough strength for the new password, by length above all. A repeat or a run is refused by the
 * server whatever its length, so it scores nothing here either; the server also refuses common
 * passwords and ones holding the name or e-mail, and says why.
 */
function strengthOf(password: string): { score: number; label: string } {
  const length = [...password].length;
  if (length < MIN_ADMIN_PASSWORD) return { score: 0, label: "Too short" };
  if (passwordPattern(password)) return { score: 0, label: "Too easy to guess" };
  const kinds =
    [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter((kind) => kind.test(password)).length;
  const score = length >= 20 ? 4 : length >= 14 ? 3 : length >= 10 && kinds >= 2 ? 2 : 1;
  return { score, label: ["Weak", "Fair", "Good", "Strong"][score - 1] };
}

export function StrengthMeter({ password }: { password: string }) {
  const { score, label } = strengthOf(password);
  const colours = ["bg-red-600", "bg-red-600", "bg-amber-500", "bg-emerald-600", "bg-emerald-700"];
  return (
    <div className="-mt-2 text-sm">
      <div
        className="flex gap-1"
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={score}
        aria-valuetext={label}
      >
        {[1, 2, 3, 4].map((step) => (
          <span
            key={step}
            className={`h-1.5 flex-1 rounded ${step <= score ? colours[score] : "bg-slate-200"}`}
          />
        ))}
      </div>
      <p className="mt-1 text-slate-700">
        {label}
        {score < 4 &&
          ". A passphrase of four or more unrelated words is longer and easier to remember."}
      </p>
    </div>
  );
}
