import { decisionNotices } from "@/server/approvals/queue";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** The caller's own requests decided (approved, rejected, expired) since they last looked: the header's notice. */
export const GET = jsonRoute({ permission: "approvals:read" }, async ({ staff }) => decisionNotices(await getDb(), staff.id));
