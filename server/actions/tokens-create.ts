"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { createTokenSchema } from "@/lib/schemas/tokens";
import { defineAction } from "@/server/action-kit/define-action";
import { createToken } from "@/server/tokens/tokens";

/**
 * Creates an access token for the signed-in staff member. The audit entry keeps the input (name, access, expiry)
 * and the token's id as its target; the secret is in the answer only, never in the entry or a log line.
 */
export const createAccessToken = defineAction({
  name: "tokens.create",
  permission: "tokens:own",
  input: createTokenSchema,
  async run(input, { db, staff, audit }) {
    const created = await createToken(db, staff, input);
    audit.target = `staff_token:${created.id}`;
    revalidatePath("/settings/tokens");
    return created;
  },
});
