"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { createAccessKeySchema } from "@/lib/schemas/access-keys";
import { defineAction } from "@/server/action-kit/define-action";
import { createAccessKey } from "@/server/cli-auth/keys";

/**
 * Creates an access key pair of the command line for the signed-in staff member. The audit entry keeps the input
 * (name, access) and the key's id as its target; the secret key is in the answer only, never in the entry or a log.
 */
export const createCliAccessKey = defineAction({
  name: "cli.key_create",
  permission: "cli:own",
  input: createAccessKeySchema,
  async run(input, { db, staff, audit }) {
    const created = await createAccessKey(db, staff, input);
    audit.target = `cli_access_key:${created.id}`;
    revalidatePath("/settings/cli");
    return created;
  },
});
