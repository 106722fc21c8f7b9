/**
 * Two-factor sign-in on the profile screen: turning it on (a QR code for the authenticator app,
 * then its first code, then its recovery codes shown once), turning it off (password and a code),
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
import { adminSettings } from "./settings.ts";

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

type TwoFactor = ReturnType<typeof useTwoFactor>;

/**
 * The panel's steps and what they send. The typed code is one value for every step, and `busy`
 * holds every button while one request is on its way.
 */
function useTwoFactor() {
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
        { code, password },
      );
      setPassword("");
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

  return {
    setup,
    recoveryCodes,
    code,
    setCode,
    password,
    setPassword,
    busy,
    start,
    confirm,
    turnOff,
    codesSaved: () => setRecoveryCodes(null),
  };
}

export function TwoFactorPanel({ admin }: { admin: Admin }) {
  const id = useId();
  const state = useTwoFactor();
  return (
    <section aria-labelledby={`${id}-title`} className="mt-6 border-t border-slate-200 pt-6">
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        Two-factor sign-in
      </h3>
      {state.recoveryCodes
        ? <RecoveryCodes codes={state.recoveryCodes} onSaved={state.codesSaved} />
        : admin.twoFactorEnabled
        ? <TurnOffForm id={id} state={state} />
        : state.setup
        ? <SetupForm id={id} setup={state.setup} state={state} />
        : (
          <div className="mt-3 space-y-3">
            <p className="text-sm text-slate-700">
              Off. With it on, a stolen password alone cannot sign in to your account.
            </p>
            <button
              type="button"
              className="btn-primary"
              disabled={state.busy}
              onClick={state.start}
            >
              Set Up Two-Factor Sign-In
            </button>
          </div>
        )}
      {admin.role === "main_admin" && <RequireForEveryone admin={admin} />}
    </section>
  );
}

/** The recovery codes, shown once right after two-factor sign-in is turned on. */
function RecoveryCodes({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <div className="mt-3 space-y-3 text-sm text-slate-700">
      <p>
        Keep these recovery codes somewhere safe. Each signs you in once if you lose your phone;
        they are not shown again.
      </p>
      <ul className="grid grid-cols-2 gap-2 font-mono" aria-label="Recovery codes">
        {codes.map((recovery) => <li key={recovery}>{recovery}</li>)}
      </ul>
      <button type="button" className="btn-secondary" onClick={onSaved}>
        I have saved them
      </button>
    </div>
  );
}

function CodeField({ id, label, state }: { id: string; label: string; state: TwoFactor }) {
  return (
    <TextField
      id={`${id}-code`}
      label={label}
      autoComplete="one-time-code"
      value={state.code}
      error={undefined}
      onChange={state.setCode}
    />
  );
}

/** The current password, which turning two-factor sign-in on or off asks for. */
function PasswordField({ id, state }: { id: string; state: TwoFactor }) {
  return (
    <TextField
      id={`${id}-password`}
      label="Current password"
      type="password"
      autoComplete="current-password"
      value={state.password}
      error={undefined}
      onChange={state.setPassword}
    />
  );
}

function TurnOffForm({ id, state }: { id: string; state: TwoFactor }) {
  return (
    <form noValidate onSubmit={state.turnOff} className="mt-3 space-y-4">
      <p className="text-sm text-slate-700">
        On: signing in asks for a code from your authenticator app.
      </p>
      <PasswordField id={id} state={state} />
      <CodeField id={id} label="Code from your app, or a recovery code" state={state} />
      <button type="submit" className="btn-secondary" disabled={state.busy}>
        Turn Off Two-Factor Sign-In
      </button>
    </form>
  );
}

/** The QR code and the key of a new secret, and the first code that proves the app holds it. */
function SetupForm({ id, setup, state }: { id: string; setup: Setup; state: TwoFactor }) {
  const digits = adminSettings().totpDigits;
  return (
    <form noValidate onSubmit={state.confirm} className="mt-3 space-y-4">
      <p className="text-sm text-slate-700">
        {`Scan this code with an authenticator app, then enter the ${digits}-digit code it shows.`}
      </p>
      <QrCode text={setup.otpauthUrl} />
      <p className="text-sm text-slate-700">
        Or enter this key by hand:{" "}
        <code className="font-mono break-all">
          {setup.secret.match(/.{1,4}/g)!.join(" ")}
        </code>
      </p>
      <CodeField id={id} label={`${digits}-digit code`} state={state} />
      <PasswordField id={id} state={state} />
      <button type="submit" className="btn-primary" disabled={state.busy}>
        Turn On
      </button>
    </form>
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
