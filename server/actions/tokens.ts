"use server";
import "server-only";
import { createTokenSchema, revokeTokenSchema } from "@/lib/schemas/tokens";
import { credentialAction } from "@/server/tokens/credential-actions";
import { createToken, revokeToken, TOKEN_CREDENTIAL } from "@/server/tokens/tokens";

/**
 * Creates an access token for the signed-in staff member. The audit entry keeps the input (name, access, expiry)
 * and the token's id as its target; the secret is in the answer only, never in the entry or a log line.
 */
export const createAccessToken = credentialAction("tokens.create", TOKEN_CREDENTIAL, createTokenSchema, createToken);

/** Revokes an access token: one's own (tokens:own), or any staff member's for an administrator (tokens:manage). */
export const revokeAccessToken = credentialAction("tokens.revoke", TOKEN_CREDENTIAL, revokeTokenSchema, (db, staff, { id }) =>
  revokeToken(db, staff, id),
);
