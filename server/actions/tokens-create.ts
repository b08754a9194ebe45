"use server";
import "server-only";
import { createTokenSchema } from "@/lib/schemas/tokens";
import { credentialAction } from "@/server/tokens/credential-actions";
import { createToken, TOKEN_CREDENTIAL } from "@/server/tokens/tokens";

/**
 * Creates an access token for the signed-in staff member. The audit entry keeps the input (name, access, expiry)
 * and the token's id as its target; the secret is in the answer only, never in the entry or a log line.
 */
export const createAccessToken = credentialAction("tokens.create", TOKEN_CREDENTIAL, createTokenSchema, createToken);
