import "server-only";
import { revalidatePath } from "next/cache";
import { AppError, NotFoundError } from "@/lib/errors";
import {
  bulkJournalRetrySchema,
  bulkJournalUploadSchema,
  rowErrorKey,
  type BulkJournalBatch,
  type BulkRowError,
} from "@/lib/schemas/bulk-journals";
import type { ActionContext, ActionDefinition, ApprovalPolicy } from "@/server/action-kit/define-action";
import { approvalPolicy } from "@/server/approvals/policy";
import { approvalsOfRequest } from "@/server/approvals/requests";
import { batchHash, batchHref, bulkJournals, BULK_JOURNALS_ACTION } from "./operation";
import { selectBatch } from "./queries";
import { sendRows, type RunTotals } from "./send";
import { validateUpload } from "./validate";

const refuse = (code: string, message: string, fieldErrors?: Record<string, string>) => new AppError(code, message, message, fieldErrors);

/** Each row's problem under `line:column`, the first one a cell. */
function rowErrors(errors: BulkRowError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) out[rowErrorKey(e)] ??= e.message;
  return out;
}

/**
 * The upload's approval step: every row validated (nothing is held while one is bad: the rows' problems come back
 * as `line:column` field errors), then the batch held as one request. A batch is always held: with no enabled rule
 * on bulk journals it is refused, never sent unheld. The same batch submitted twice waits once; the same batch id
 * with other rows, or once it left the queue, is refused (a new batch has a new id, its rows new request ids).
 */
const holdBatch: ApprovalPolicy<{ batch_id: string; csv: string }> = async (upload, ctx) => {
  ctx.audit.target = `bulk-journal:${upload.batch_id}`;
  const { batch, errors } = await validateUpload(ctx.db, upload);
  if (errors.length) {
    const rows = new Set(errors.map((e) => e.line)).size;
    throw refuse("BATCH_INVALID", `${rows} row${rows === 1 ? "" : "s"} to fix: nothing was held or sent.`, rowErrors(errors));
  }
  await refuseReusedBatch(ctx, batch);
  const decision = await approvalPolicy(bulkJournals)(batch, ctx);
  if (decision.status === "proceed")
    throw refuse(
      "NO_APPROVAL_RULE",
      "Bulk journals always wait for a second person, but no enabled approval rule holds them: an administrator enables the Bulk journals rule (Admin → Approval rules). Nothing was sent.",
    );
  return decision;
};

async function refuseReusedBatch(ctx: ActionContext, batch: BulkJournalBatch): Promise<void> {
  const existing = await selectBatch(ctx.db.engine, batch.batch_id);
  if (!existing) return;
  const approvals = await approvalsOfRequest(ctx.db, [BULK_JOURNALS_ACTION], batch.batch_id);
  if (existing.payload_hash === batchHash(batch) && approvals.some((a) => a.status === "pending")) return;
  throw refuse("BATCH_EXISTS", "This batch was already sent for approval: start a new batch for other rows.");
}

export const uploadBulkJournals: ActionDefinition<typeof bulkJournalUploadSchema, never> & {
  approval: ApprovalPolicy<{ batch_id: string; csv: string }>;
} = {
  name: BULK_JOURNALS_ACTION,
  permission: "movements:write",
  input: bulkJournalUploadSchema,
  approval: holdBatch,
  run: async () => {
    throw new Error("a batch of journals is always held");
  },
};

/**
 * Sends a batch's failed rows again, each with its own same request id, once the approved batch's execution is
 * over (executed, or failed). A failed row may have reached the upstream (a timeout): each is asked first and only
 * sent when the upstream does not have it. The batch's approval covers its rows: retrying them is not a new request.
 */
export async function retryFailedRows(batchId: string, ctx: ActionContext): Promise<RunTotals> {
  ctx.audit.target = `bulk-journal:${batchId}`;
  const approval = (await approvalsOfRequest(ctx.db, [BULK_JOURNALS_ACTION], batchId)).at(-1);
  if (!approval || !(await selectBatch(ctx.db.engine, batchId))) throw new NotFoundError("This batch does not exist.");
  if (approval.status === "executing") throw refuse("STILL_EXECUTING", "The batch is still being sent: retry once it is done.");
  if (approval.status !== "executed" && approval.status !== "failed")
    throw refuse("NOT_APPROVED", "Only an approved batch's rows are sent: this one was not approved.");
  const batch = bulkJournals.schema.parse(approval.payload);
  // A row still pending once the execution is over never reached the upstream (the run stopped on an error): it is
  // sent with the failed ones.
  const totals = await sendRows(batch, ctx, { from: ["failed", "pending"] });
  if (!totals.sent && !totals.failed) throw refuse("NOTHING_TO_RETRY", "No row of this batch failed: there is nothing to send again.");
  revalidatePath(batchHref(batchId));
  return totals;
}

export const retryBulkJournalRows: ActionDefinition<typeof bulkJournalRetrySchema, RunTotals> = {
  name: `${BULK_JOURNALS_ACTION}.retry`,
  permission: "movements:write",
  input: bulkJournalRetrySchema,
  run: ({ batch_id }, ctx) => retryFailedRows(batch_id, ctx),
};
