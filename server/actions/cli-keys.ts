"use server";
import "server-only";
import { createAccessKeySchema, revokeAccessKeySchema } from "@/lib/schemas/access-keys";
import { ACCESS_KEY_CREDENTIAL, createAccessKey, revokeAccessKey } from "@/server/cli-auth/keys";
import { credentialAction } from "@/server/tokens/credential-actions";

/**
 * Creates an access key pair of the command line for the signed-in staff member. The audit entry keeps the input
 * (name, access) and the key's id as its target; the secret key is in the answer only, never in the entry or a log.
 */
export const createCliAccessKey = credentialAction("cli.key_create", ACCESS_KEY_CREDENTIAL, createAccessKeySchema, createAccessKey);

/** Revokes an access key (and with it its sessions): one's own (cli:own), or anyone's for an administrator (cli:manage). */
export const revokeCliAccessKey = credentialAction("cli.key_revoke", ACCESS_KEY_CREDENTIAL, revokeAccessKeySchema, (db, staff, { id }) =>
  revokeAccessKey(db, staff, id),
);
