import { z } from "zod";
import { UNPRINTABLE, UNPRINTABLE_MESSAGE } from "./virtual-account";
import "./messages";

/**
 * Staff access tokens (server/tokens): one schema each for creating and revoking, shared by the Access tokens page
 * and the server actions. The secret is in the create result only, never in an input, a list or the audit trail.
 */
export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** What a token may do: read only, or read and write (write always comes with read). */
export const TOKEN_ACCESS = ["read", "read_write"] as const;
export type TokenAccess = (typeof TOKEN_ACCESS)[number];
export const TOKEN_ACCESS_LABELS: Record<TokenAccess, string> = { read: "Read only", read_write: "Read and write" };
export const scopesOf = (access: TokenAccess): TokenScope[] => (access === "read" ? ["read"] : ["read", "write"]);

/** How long a token lives, in days: every token expires, a year at most (the table's check says the same). */
export const TOKEN_EXPIRY_DAYS = ["7", "30", "90", "365"] as const;

/**
 * The fields every staff credential is made with (an access token, an access key of the command line): its name,
 * `nameRequired` the message when there is none, and what it may do, said of the credential's `noun`.
 */
export const credentialFields = (noun: string, nameRequired: string) => ({
  name: z
    .string()
    .trim()
    .min(1, nameRequired)
    .max(80, "Use at most 80 characters")
    .refine((v) => !UNPRINTABLE.test(v), UNPRINTABLE_MESSAGE),
  access: z.enum(TOKEN_ACCESS, { message: `Choose what the ${noun} may do` }),
});

export const createTokenSchema = z.object({
  ...credentialFields("token", "Name the token after what will use it"),
  expiresInDays: z.enum(TOKEN_EXPIRY_DAYS, { message: "Choose when the token expires" }),
});
export type CreateTokenInput = z.infer<typeof createTokenSchema>;

// `id`, not `tokenId`: the audit trail redacts every key that names a token (server/audit/entry.ts `redactSecrets`).
export const revokeTokenSchema = z.object({ id: z.string().uuid() });

/** What creating a token answers: the secret, this once. */
export interface CreatedToken {
  id: string;
  name: string;
  prefix: string;
  scopes: TokenScope[];
  expiresAt: string;
  secret: string;
}
