"use server";
import "server-only";
import { streamRequestSchema } from "@/lib/schemas/stream";
import { requestActivitiesSweep } from "@/server/activities/sweep";
import { defineAction } from "./safe-action";

/**
 * Asks the event service for a sweep of every account's activities now (instead of at its next interval); the
 * explorer shows its progress and the new "as of".
 */
export const requestSweep = defineAction({
  name: "activities.sweep",
  permission: "activities:read",
  input: streamRequestSchema,
  async run(_input, { db, staff, audit }) {
    audit.target = "activities";
    await requestActivitiesSweep(db.engine, staff.email);
    return { requested: true };
  },
});
