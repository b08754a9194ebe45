"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { alertDecisionSchema } from "@/lib/schemas/surveillance";
import { defineAction } from "@/server/action-kit/define-action";
import { decideAlert, getAlert } from "@/server/surveillance/queries/alerts";

/** A reviewer clears or escalates an open alert, with a note; the audit entry keeps the decision and the note. */
export const decideSurveillanceAlert = defineAction({
  name: "alerts.decide",
  permission: "alerts:decide",
  input: alertDecisionSchema,
  async run({ alertId, decision, note }, { db, staff, audit }) {
    audit.target = `alert:${alertId}`;
    const alert = await getAlert(db.engine, alertId);
    if (!(await decideAlert(db.engine, { alertId, decision, note, by: staff.email }))) {
      throw new AppError(
        "ALREADY_DECIDED",
        "alert already decided",
        `This alert was already ${alert.status === "open" ? "decided" : alert.status}.`,
      );
    }
    revalidatePath(`/alerts/${alertId}`);
    revalidatePath("/alerts");
    return { alertId, status: decision };
  },
});
