"use server";
import "server-only";
import { revokeAccessKeySchema } from "@/lib/schemas/access-keys";
import { ACCESS_KEY_CREDENTIAL, revokeAccessKey } from "@/server/cli-auth/keys";
import { credentialAction } from "@/server/tokens/credential-actions";

/** Revokes an access key (and with it its sessions): one's own (cli:own), or anyone's for an administrator (cli:manage). */
export const revokeCliAccessKey = credentialAction("cli.key_revoke", ACCESS_KEY_CREDENTIAL, revokeAccessKeySchema, (db, staff, { id }) =>
  revokeAccessKey(db, staff, id),
);
