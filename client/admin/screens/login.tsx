/**
 * Admin sign-in inside the portal, where a session that ends (logout, a refused call) lands without
 * leaving the app; opened directly, /admin/login is the server's page with its own small entry.
 */
import { Navigate, useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { tokenStore } from "../api.ts";
import { LoginPage, type SignedIn } from "../login-form.tsx";
import { profileKey, useSession } from "../session.ts";
import { AuthSpinner } from "../spinner.tsx";

export function LoginScreen() {
  const { token, admin, resolving } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  if (resolving) return <AuthSpinner />;
  if (token && admin) return <Navigate to="/admin/dashboard" replace />;

  const signedIn = async (answer: SignedIn) => {
    queryClient.setQueryData([...profileKey, answer.token], answer.admin);
    tokenStore.set(answer.token);
    toast.success("Login successful!");
    await navigate({ to: "/admin/dashboard" });
  };
  return <LoginPage onSignedIn={signedIn} />;
}
