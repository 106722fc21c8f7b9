/**
 * The sign-in page's content: rendered by the server at /admin/login (so the form paints before any
 * script arrives), hydrated there by the small sign-in entry, and shown by the portal itself when a
 * session ends inside it. What happens after a successful sign-in is the caller's.
 */
import { type FormEvent, useRef, useState } from "react";
import { toast } from "sonner";
import { loginSchema } from "../../kv/schemas.ts";
import { api, ApiError } from "./api.ts";
import { TextField, validate } from "./components/form.tsx";
import type { Admin } from "./types.ts";

type Field = "email" | "password";

export interface SignedIn {
  token: string;
  admin: Admin;
}

/**
 * Signing in with what the form holds: the fields' errors, the code field once the account asks
 * for a second factor, and whether failed sign-ins elsewhere hold the account back.
 */
function useSignIn(onSignedIn: (answer: SignedIn) => Promise<void>) {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  /** Shown once the password was right and the account asks for a second factor. */
  const [needCode, setNeedCode] = useState(false);
  /** Failed sign-ins elsewhere hold the account back: a code or a mailed link lets the owner in. */
  const [locked, setLocked] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The fields keep their own values: what was typed before the script ran counts too.
    const fields = new FormData(event.currentTarget);
    const data = validate(
      loginSchema,
      { email: fields.get("email"), password: fields.get("password") },
      setErrors,
    );
    if (data === null) return;
    const totp = String(fields.get("totp") ?? "").trim();
    setBusy(true);
    try {
      const answer = await api.post<SignedIn>(
        "/admin/login",
        { ...data, ...(needCode && totp ? { totp } : {}) },
        { ignoreUnauthorized: true },
      );
      await onSignedIn(answer);
    } catch (error) {
      if (error instanceof ApiError && error.body.totpRequired === true) setNeedCode(true);
      if (error instanceof ApiError && error.body.accountLocked === true) {
        setNeedCode(true);
        setLocked(true);
      }
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
  return { errors, busy, needCode, locked, submit };
}

export function LoginPage({ onSignedIn }: { onSignedIn: (answer: SignedIn) => Promise<void> }) {
  const { errors, busy, needCode, locked, submit } = useSignIn(onSignedIn);
  const form = useRef<HTMLFormElement>(null);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-8 text-center">
          <p className="text-2xl font-bold text-indigo-700">CareerEdge</p>
          <h1 className="mt-2 text-xl font-semibold text-slate-900">Admin Portal</h1>
          <p className="mt-1 text-sm text-slate-600">Sign in to manage jobs and analytics</p>
        </div>
        {/* A POST, so a submit before the script runs never puts the password in the address. */}
        <form
          ref={form}
          method="post"
          action="/admin/login"
          noValidate
          onSubmit={submit}
          className="card space-y-5 p-6"
        >
          <TextField
            id="login-email"
            name="email"
            label="Email"
            type="email"
            autoComplete="username"
            required
            error={errors.email}
          />
          <PasswordField error={errors.password} />
          {needCode && (
            <TextField
              id="login-totp"
              name="totp"
              label="Authentication code (or a recovery code)"
              autoComplete="one-time-code"
              required
              error={undefined}
            />
          )}
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "Signing In..." : "Sign In"}
          </button>
          {locked && <MailedLink form={form.current} />}
          <p className="text-center text-sm">
            <a href="/admin/forgot-password" className="font-medium text-indigo-700 underline">
              Forgot password?
            </a>
          </p>
        </form>
        <DemoNote />
      </div>
    </main>
  );
}

/** The password box, with a button that shows what was typed. */
function PasswordField({ error }: { error: string | undefined }) {
  const [showPassword, setShowPassword] = useState(false);
  return (
    <div>
      <label htmlFor="login-password" className="field-label">Password</label>
      <div className="relative">
        <input
          id="login-password"
          name="password"
          type={showPassword ? "text" : "password"}
          autoComplete="current-password"
          required
          className="field pr-16"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "login-password-error" : undefined}
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
      {error && (
        <p id="login-password-error" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function DemoNote() {
  return (
    <aside className="mt-6 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="font-semibold">Demo note</p>
      <p className="mt-1">
        The main admin account is created through{" "}
        <code className="font-mono">POST /api/admin/create-main-admin</code> with{" "}
        <code className="font-mono">username</code>, <code className="font-mono">email</code>,{" "}
        <code className="font-mono">password</code> and <code className="font-mono">secretKey</code>
        {" "}
        in the body.
      </p>
    </aside>
  );
}

/** Asks for a mail with a link that confirms this browser for the e-mail typed in `form`. */
function MailedLink({ form }: { form: HTMLFormElement | null }) {
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    const email = String(new FormData(form ?? undefined).get("email") ?? "").trim();
    setBusy(true);
    try {
      setSent((await api.post<{ message: string }>("/admin/device-link", { email })).message);
    } catch (error) {
      toast.error(
        error instanceof ApiError && error.status > 0 ? error.message : "Please try again.",
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
      <p>No authenticator app? We can e-mail you a link that confirms this browser.</p>
      {sent
        ? <p role="status" className="mt-2 font-medium text-slate-900">{sent}</p>
        : (
          <button type="button" className="btn-secondary mt-2 w-full" disabled={busy} onClick={ask}>
            {busy ? "Sending..." : "E-mail me a link for this browser"}
          </button>
        )}
    </div>
  );
}
