"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { revokeAccessKeySchema } from "@/lib/schemas/access-keys";
import { defineAction } from "@/server/action-kit/define-action";
import { revokeAccessKey } from "@/server/cli-auth/keys";

/** Revokes an access key (and with it its sessions): one's own (cli:own), or anyone's for an administrator (cli:manage). */
export const revokeCliAccessKey = defineAction({
  name: "cli.key_revoke",
  permission: "cli:own",
  input: revokeAccessKeySchema,
  async run({ id }, { db, staff, audit }) {
    audit.target = `cli_access_key:${id}`;
    const revoked = await revokeAccessKey(db, staff, id);
    revalidatePath("/settings/cli");
    return revoked;
  },
});
