import { requireAccountFor } from "@/server/accounts/accounts";
import { accountPathParams } from "@/server/accounts/route-params";
import { jsonRoute } from "@/server/http";

/** The account overview, PII masked on the server for roles without pii:view; 404 for an unknown account. */
export const GET = jsonRoute({ permission: "accounts:read", params: accountPathParams }, ({ staff, params }) =>
  requireAccountFor(staff, params.accountId),
);
