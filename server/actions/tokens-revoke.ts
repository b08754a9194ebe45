"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { revokeTokenSchema } from "@/lib/schemas/tokens";
import { defineAction } from "@/server/action-kit/define-action";
import { revokeToken } from "@/server/tokens/tokens";

/** Revokes an access token: one's own (tokens:own), or any staff member's for an administrator (tokens:manage). */
export const revokeAccessToken = defineAction({
  name: "tokens.revoke",
  permission: "tokens:own",
  input: revokeTokenSchema,
  async run({ id }, { db, staff, audit }) {
    audit.target = `staff_token:${id}`;
    const revoked = await revokeToken(db, staff, id);
    revalidatePath("/settings/tokens");
    return revoked;
  },
});
