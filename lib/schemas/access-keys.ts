import { z } from "zod";
import { credentialFields, type TokenScope } from "./tokens";
import "./messages";

/**
 * The command line's access keys (server/cli-auth): one schema each for creating and revoking, shared by
 * Settings → Command line and the server actions. The secret key is in the create result only, never in an input,
 * a list or the audit trail. What a key may do is said as an access token's (read, or read and write).
 */
export const ACCESS_KEY_ID_PATTERN = /^bdak_[A-Za-z0-9_-]{20}$/;

export const createAccessKeySchema = z.object(credentialFields("key", "Name the key after where it is used, e.g. “my laptop”"));
export type CreateAccessKeyInput = z.infer<typeof createAccessKeySchema>;

// `id`, not `keyId` or `accessKeyId`: an id is public, and stays readable in the audit trail.
export const revokeAccessKeySchema = z.object({ id: z.string().regex(ACCESS_KEY_ID_PATTERN, "Not an access key id") });

/** What creating a key answers: the secret key, this once, and the command that signs in with it. */
export interface CreatedAccessKey {
  id: string;
  name: string;
  scopes: TokenScope[];
  createdAt: string;
  secret: string;
}
