import { timelineParamsSchema } from "@/lib/schemas/account-timeline";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { accountTimeline } from "@/server/timeline/account-timeline";

/** One page of the account's timeline, from the desk's own records only; sources the role cannot read are left out. */
export const GET = jsonRoute({ permission: "accounts:read", params: timelineParamsSchema }, async ({ staff, params }) =>
  accountTimeline((await getDb()).engine, { accountId: params.accountId, role: staff, kinds: params.kinds, cursor: params.cursor }),
);
