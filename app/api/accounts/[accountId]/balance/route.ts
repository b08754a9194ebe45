import { getAccountBalance } from "@/server/accounts/accounts";
import { accountPathParams } from "@/server/accounts/route-params";
import { jsonRoute } from "@/server/http";

export const GET = jsonRoute({ permission: "accounts:read", params: accountPathParams }, ({ params }) =>
  getAccountBalance(params.accountId),
);
