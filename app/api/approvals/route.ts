import { approvalListParams } from "@/lib/schemas/approvals";
import { approvalInboxPage } from "@/server/approvals/inbox";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** One keyset page of the approvals inbox (pending first), with the server's clock for the times it shows. */
export const GET = jsonRoute({ permission: "approvals:read", params: (query) => approvalListParams.parse(query) }, async ({ params }) =>
  approvalInboxPage(await getDb(), params),
);
