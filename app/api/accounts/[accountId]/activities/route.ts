import { getAccountActivities } from "@/server/accounts/accounts";
import { accountActivitiesParams } from "@/server/accounts/route-params";
import { jsonRoute } from "@/server/http";

export const GET = jsonRoute({ permission: "accounts:read", params: accountActivitiesParams }, ({ params }) =>
  getAccountActivities(params.accountId, params.cursor),
);
