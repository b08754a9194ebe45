"use server";
import "server-only";
import { activitySweepSchema } from "@/lib/schemas/activity-sweep";
import { resolveAccount } from "@/server/accounts/directory";
import { requestActivitiesSweep, resetAccountSweep } from "@/server/activities/sweep";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * Asks the event service for a sweep of every account's activities now (instead of at its next interval); with an
 * account, that account's history is read again from the start. The explorer shows the progress and the new "as of".
 */
export const requestSweep = defineAction({
  name: "activities.sweep",
  permission: "activities:read",
  input: activitySweepSchema,
  async run(input, { db, staff, audit }) {
    if (!input.account) {
      audit.target = "activities";
      return requestActivitiesSweep(db.engine, staff.email);
    }
    const { accountId } = await resolveAccount(db.engine, input.account);
    audit.target = `account:${accountId}`;
    return resetAccountSweep(db.engine, accountId, staff.email);
  },
});
