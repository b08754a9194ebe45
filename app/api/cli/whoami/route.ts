import { authenticateCliRequest } from "@/server/cli-auth/sessions";
import { cliRoute } from "../cli-route";

export const dynamic = "force-dynamic";

/** Who a command-line session acts for (signed, `Authorization: Bearer bdcs_…`): `{ email, name, role, scopes, expires_at }`. */
export const GET = cliRoute(authenticateCliRequest, ({ caller: { key, expiresAt } }) => {
  const { email, name, role } = key.staff;
  return { email, name, role, scopes: key.scopes, expires_at: expiresAt.toISOString() };
});
