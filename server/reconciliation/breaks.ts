import "server-only";
import { can } from "@/lib/auth/permissions";
import { AppError, NotFoundError } from "@/lib/errors";
import type { BreakComment, BreakDetail } from "@/lib/schemas/reconciliation";
import { staffOf } from "@/server/auth/staff-access";
import type { Engine, Queryable } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { assignBreak, closeBreak, insertComment, selectActiveStaff, selectBreak, selectComments } from "./queries";

/**
 * What staff do with a break: read it with its comments, assign it to someone who works breaks, comment on it, close
 * it with how it was resolved. Each change sends the `reconciliation` notice (the list and the break's page read
 * again); the actions (server/actions/reconciliation.ts) audit each one with its input.
 */
export const RECONCILIATION_TOPIC = "reconciliation";
const notify = (q: Queryable) => notifyChange(q, { topics: [RECONCILIATION_TOPIC], accounts: [] });

export async function getBreak(q: Queryable, id: string): Promise<BreakDetail> {
  const row = /^\d{1,18}$/.test(id) ? await selectBreak(q, id) : undefined;
  if (!row) throw new NotFoundError("No such break.");
  return { ...row, comments: await selectComments(q, id) };
}

/** Who a break may be assigned to: active staff whose role works breaks, by email. */
export async function breakAssignees(q: Queryable): Promise<{ email: string; name: string }[]> {
  return (await selectActiveStaff(q)).filter((r) => can(staffOf(r), "reconciliation:work")).map((r) => ({ email: r.email, name: r.name }));
}

const closedAlready = () => new AppError("BREAK_CLOSED", "break already closed", "This break is closed: it can no longer be changed.");

export async function assignTo(engine: Engine, id: string, assignee: string): Promise<BreakDetail> {
  await getBreak(engine, id);
  if (assignee && !(await breakAssignees(engine)).some((s) => s.email === assignee))
    throw new AppError(
      "NOT_AN_ASSIGNEE",
      "assignee cannot work breaks",
      "Assign the break to an active staff member whose role works breaks.",
      {
        assignee: "Not someone who works breaks",
      },
    );
  if (!(await assignBreak(engine, id, assignee || null))) throw closedAlready();
  await notify(engine);
  return getBreak(engine, id);
}

export async function commentOn(engine: Engine, id: string, author: string, body: string): Promise<BreakComment> {
  await getBreak(engine, id);
  const comment = await insertComment(engine, id, author, body);
  await notify(engine);
  return comment;
}

export async function closeWith(engine: Engine, id: string, by: string, resolution: string): Promise<BreakDetail> {
  await getBreak(engine, id);
  if (!(await closeBreak(engine, id, by, resolution))) throw closedAlready();
  await notify(engine);
  return getBreak(engine, id);
}
