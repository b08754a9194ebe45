"use server";
import "server-only";
import { activitySweepSchema } from "@/lib/schemas/activity-sweep";
import { resolveAccount } from "@/server/accounts/directory";
import { defineAction } from "@/server/action-kit/define-action";
import { requestActivitiesSweep, resetAccountSweep } from "@/server/activities/sweep-requests";
import { requestJob } from "@/server/jobs";
import { JOBS } from "@/server/jobs/definitions";

/**
 * Sends a sweep job for every account's activities now (instead of at its next interval); with an
 * account, that account's history is read again from the start. The explorer shows the progress and the new "as of".
 */
export const requestSweep = defineAction({
  name: "activities.sweep",
  permission: "activities:read",
  input: activitySweepSchema,
  async run(input, { db, staff, audit }) {
    let requested: { requestedAt: string };
    if (!input.account) {
      audit.target = "activities";
      requested = await requestActivitiesSweep(db.engine, staff.email);
    } else {
      const { accountId } = await resolveAccount(db.engine, input.account);
      audit.target = `account:${accountId}`;
      requested = await resetAccountSweep(db.engine, accountId, staff.email);
    }
    // The request's time stays on the event_stream row for the page's freshness line; the job answers it.
    await requestJob(JOBS.activitiesSweep.name, { requestedBy: staff.email, requestedAt: requested.requestedAt });
    return requested;
  },
});
