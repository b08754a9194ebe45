import { credentialLists } from "@/components/tokens/credential-lists";
import { accessKeyListParams, type AccessKeyListParams } from "@/lib/schemas/access-key-list";

/**
 * The access key lists: roots `access-keys` and `access-keys-all` (the live `access-key` topic's), GET
 * /api/access-keys and /api/access-keys/all.
 */
export const accessKeyLists = credentialLists<AccessKeyListParams>("access-keys", "/api/access-keys", accessKeyListParams);
