/** Admin sign-in (SPEC section 2, /admin/login), with the messages of section 8. */
import { type FormEvent, useState } from "react";
import { Navigate, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { loginSchema } from "../../../kv/schemas.ts";
import { api, ApiError, tokenStore } from "../api.ts";
import { profileKey, useSession } from "../session.ts";
import { AuthSpinner } from "../spinner.tsx";
import { TextField, validate } from "../components/form.tsx";
import type { Admin } from "../types.ts";

type Field = "email" | "password";

export function LoginScreen() {
  const { token, admin, resolving } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);

  if (resolving && !busy) return <AuthSpinner />;
  if (token && admin && !busy) return <Navigate to="/admin/dashboard" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const data = validate(loginSchema, { email, password }, setErrors);
    if (data === null) return;
    setBusy(true);
    try {
      const answer = await api.post<{ token: string; admin: Admin }>(
        "/admin/login",
        data,
        { ignoreUnauthorized: true },
      );
      queryClient.setQueryData([...profileKey, answer.token], answer.admin);
      tokenStore.set(answer.token);
      toast.success("Login successful!");
      await navigate({ to: "/admin/dashboard" });
    } catch (error) {
      // The server said no: its message. No answer at all, or anything else: try again.
      toast.error(
        error instanceof ApiError && error.status > 0
          ? error.message || "Login failed"
          : "Login failed. Please try again.",
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-8 text-center">
          <p className="text-2xl font-bold text-indigo-700">CareerEdge</p>
          <h1 className="mt-2 text-xl font-semibold text-slate-900">Admin Portal</h1>
          <p className="mt-1 text-sm text-slate-600">Sign in to manage jobs and analytics</p>
        </div>
        <form noValidate onSubmit={submit} className="card space-y-5 p-6">
          <TextField
            id="login-email"
            label="Email"
            type="email"
            autoComplete="username"
            required
            value={email}
            error={errors.email}
            onChange={setEmail}
          />
          <div>
            <label htmlFor="login-password" className="field-label">Password</label>
            <div className="relative">
              <input
                id="login-password"
                type={showPassword ? "text" : "password"}
                autoComplete="current-password"
                required
                className="field pr-16"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? "login-password-error" : undefined}
              />
              <button
                type="button"
                className="absolute inset-y-0 right-0 px-3 text-sm font-medium text-indigo-700"
                aria-pressed={showPassword}
                onClick={() => setShowPassword(!showPassword)}
              >
                {showPassword ? "Hide" : "Show"}
                <span className="sr-only">password</span>
              </button>
            </div>
            {errors.password && (
              <p id="login-password-error" className="mt-1 text-sm text-red-700">
                {errors.password}
              </p>
            )}
          </div>
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "Signing In..." : "Sign In"}
          </button>
        </form>
        <aside className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="font-semibold">Demo note</p>
          <p className="mt-1">
            The main admin account is created through{" "}
            <code className="font-mono">POST /api/admin/create-main-admin</code> with{" "}
            <code className="font-mono">username</code>, <code className="font-mono">email</code>,
            {" "}
            <code className="font-mono">password</code> and{" "}
            <code className="font-mono">secretKey</code> in the body.
          </p>
        </aside>
      </div>
    </main>
  );
}
