"use server";
import "server-only";
import { revokeTokenSchema } from "@/lib/schemas/tokens";
import { credentialAction } from "@/server/tokens/credential-actions";
import { revokeToken, TOKEN_CREDENTIAL } from "@/server/tokens/tokens";

/** Revokes an access token: one's own (tokens:own), or any staff member's for an administrator (tokens:manage). */
export const revokeAccessToken = credentialAction("tokens.revoke", TOKEN_CREDENTIAL, revokeTokenSchema, (db, staff, { id }) =>
  revokeToken(db, staff, id),
);
