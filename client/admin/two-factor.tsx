/**
 * Two-factor sign-in on the profile screen: turning it on (a QR code for the authenticator app,
 * then its first code, then ten recovery codes shown once), turning it off (password and a code),
 * and, for the main admin, requiring it of every admin.
 */
import { type FormEvent, useId, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { encode } from "uqr";
import { api, messageOf, tokenStore } from "./api.ts";
import { profileKey } from "./session.ts";
import { TextField } from "./components/form.tsx";
import type { Admin } from "./types.ts";

/** The QR code of `text` as SVG squares: no HTML is made from a string. */
function QrCode({ text }: { text: string }) {
  const { data, size } = encode(text);
  const border = 2;
  return (
    <svg
      viewBox={`${-border} ${-border} ${size + 2 * border} ${size + 2 * border}`}
      className="size-48 rounded bg-white"
      role="img"
      aria-label="QR code for your authenticator app"
      shapeRendering="crispEdges"
    >
      <rect
        x={-border}
        y={-border}
        width={size + 2 * border}
        height={size + 2 * border}
        fill="#fff"
      />
      {data.flatMap((row, y) =>
        row.map((dark, x) =>
          dark ? <rect key={`${x},${y}`} x={x} y={y} width={1} height={1} /> : null
        )
      )}
    </svg>
  );
}

interface Setup {
  secret: string;
  otpauthUrl: string;
}

export function TwoFactorPanel({ admin }: { admin: Admin }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const saved = (next: Admin) => queryClient.setQueryData([...profileKey, tokenStore.get()], next);

  const run = async (work: () => Promise<void>, failure: string) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      toast.error(messageOf(error, failure));
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    run(async () => {
      setSetup(await api.post<Setup>("/admin/profile/totp"));
      setCode("");
    }, "Could not start two-factor set-up");

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const answer = await api.post<{ message: string; recoveryCodes: string[]; admin: Admin }>(
        "/admin/profile/totp/confirm",
        { code },
      );
      setSetup(null);
      setRecoveryCodes(answer.recoveryCodes);
      saved(answer.admin);
      toast.success(answer.message);
    }, "Could not turn on two-factor sign-in");
  };

  const turnOff = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const answer = await api.delete<{ message: string; admin: Admin }>("/admin/profile/totp", {
        password,
        code,
      });
      setPassword("");
      setCode("");
      saved(answer.admin);
      toast.success(answer.message);
    }, "Could not turn off two-factor sign-in");
  };

  const codeField = (label: string) => (
    <TextField
      id={`${id}-code`}
      label={label}
      autoComplete="one-time-code"
      value={code}
      error={undefined}
      onChange={setCode}
    />
  );

  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 border-t border-slate-200 pt-6">
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        Two-factor sign-in
      </h3>
      {recoveryCodes
        ? (
          <div className="mt-3 space-y-3 text-sm text-slate-700">
            <p>
              Keep these recovery codes somewhere safe. Each signs you in once if you lose your
              phone; they are not shown again.
            </p>
            <ul className="grid grid-cols-2 gap-2 font-mono" aria-label="Recovery codes">
              {recoveryCodes.map((recovery) => <li key={recovery}>{recovery}</li>)}
            </ul>
            <button type="button" className="btn-secondary" onClick={() => setRecoveryCodes(null)}>
              I have saved them
            </button>
          </div>
        )
        : admin.twoFactorEnabled
        ? (
          <form noValidate onSubmit={turnOff} className="mt-3 space-y-4">
            <p className="text-sm text-slate-700">
              On: signing in asks for a code from your authenticator app.
            </p>
            <TextField
              id={`${id}-password`}
              label="Current password"
              type="password"
              autoComplete="current-password"
              value={password}
              error={undefined}
              onChange={setPassword}
            />
            {codeField("Code from your app, or a recovery code")}
            <button type="submit" className="btn-secondary" disabled={busy}>
              Turn Off Two-Factor Sign-In
            </button>
          </form>
        )
        : setup
        ? (
          <form noValidate onSubmit={confirm} className="mt-3 space-y-4">
            <p className="text-sm text-slate-700">
              Scan this code with an authenticator app, then enter the 6-digit code it shows.
            </p>
            <QrCode text={setup.otpauthUrl} />
            <p className="text-sm text-slate-700">
              Or enter this key by hand:{" "}
              <code className="font-mono break-all">
                {setup.secret.match(/.{1,4}/g)!.join(" ")}
              </code>
            </p>
            {codeField("6-digit code")}
            <button type="submit" className="btn-primary" disabled={busy}>
              Turn On
            </button>
          </form>
        )
        : (
          <div className="mt-3 space-y-3">
            <p className="text-sm text-slate-700">
              Off. With it on, a stolen password alone cannot sign in to your account.
            </p>
            <button type="button" className="btn-primary" disabled={busy} onClick={start}>
              Set Up Two-Factor Sign-In
            </button>
          </div>
        )}
      {admin.role === "main_admin" && <RequireForEveryone admin={admin} />}
    </section>
  );
}

function RequireForEveryone({ admin }: { admin: Admin }) {
  const id = useId();
  const queryClient = useQueryClient();
  const setting = useQuery({
    queryKey: ["settings", "two-factor"],
    queryFn: () => api.get<{ required: boolean }>("/admin/settings/two-factor"),
  });
  const change = async (required: boolean) => {
    try {
      const answer = await api.put<{ message: string; required: boolean }>(
        "/admin/settings/two-factor",
        { required },
      );
      queryClient.setQueryData(["settings", "two-factor"], { required: answer.required });
      toast.success(answer.message);
    } catch (error) {
      toast.error(messageOf(error, "Could not change the setting"));
    }
  };
  return (
    <div className="mt-4 flex items-start gap-2 text-sm text-slate-700">
      <input
        id={id}
        type="checkbox"
        className="mt-1"
        checked={setting.data?.required ?? false}
        disabled={!setting.data || (!admin.twoFactorEnabled && !setting.data.required)}
        onChange={(event) => change(event.target.checked)}
      />
      <label htmlFor={id}>
        Require two-factor sign-in for every admin
        {!admin.twoFactorEnabled && (
          <span className="block text-xs text-slate-600">Turn it on for yourself first.</span>
        )}
      </label>
    </div>
  );
}
