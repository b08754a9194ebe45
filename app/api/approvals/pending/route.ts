import { pendingMarksQuerySchema } from "@/lib/schemas/approval-queue";
import { pendingMarks } from "@/server/approvals/queue";
import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";

/** The held requests touching an account (`?account=`) or holding a movement (`?clientRequestId=`): their pages' marker. */
export const GET = jsonRoute({ permission: "approvals:read", params: pendingMarksQuerySchema }, async ({ params }) => ({
  rows: await pendingMarks(await getDb(), params),
}));
