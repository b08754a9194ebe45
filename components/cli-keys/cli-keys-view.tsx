"use client";
import { credentialColumn } from "@/components/tokens/credential-columns";
import { CredentialsView, type CredentialPagesKind } from "@/components/tokens/credentials-view";
import { Mono } from "@/components/ui/mono";
import type { AccessKeyListParams, AccessKeyRow, AccessKeyView } from "@/lib/schemas/access-key-list";
import { createAccessKeySchema, type CreateAccessKeyInput, type CreatedAccessKey } from "@/lib/schemas/access-keys";
import { createCliAccessKey, revokeCliAccessKey } from "@/server/actions/cli-keys";
import { NewKeyPair } from "./new-key-pair";
import { accessKeyLists } from "./query-keys";

/**
 * The command line's access keys on the Command line pages, through their GET routes (a key created or revoked
 * anywhere, an audit entry with the `access-key` notice, reads them again): a key's id in the list; where it is
 * used and what it may do on the form.
 */
const ACCESS_KEYS: CredentialPagesKind<AccessKeyRow, AccessKeyListParams, CreateAccessKeyInput, CreatedAccessKey> = {
  lists: accessKeyLists,
  tabs: { label: "Whose access keys", mine: "My access keys", href: "/settings/cli" },
  list: {
    identifier: credentialColumn<AccessKeyRow>("key", "Access key id", (k) => <Mono>{k.id}</Mono>),
    revoke: (k) => revokeCliAccessKey({ id: k.id }),
    confirm: (k, whose) =>
      `Revoke the access key “${k.name}” (${k.id})${whose}? Its sessions end: the command line logged in with it stops working at once.`,
    revoked: (k, whose) => `The access key “${k.name}”${whose} is revoked.`,
    empty: { all: "No staff member has an access key yet.", mine: "You have no access keys yet. Create one with the form." },
    rowTestId: (k) => `access-key-row-${k.id}`,
  },
  form: {
    title: "New access key",
    schema: createAccessKeySchema,
    defaultValues: { name: "", access: "read" },
    action: createCliAccessKey,
    nameHint: "Where it is used, e.g. “work laptop”.",
    accessHint: "Write lets the command line act (where the desk's tools allow) as well as read.",
    submit: "Create access key",
  },
};

/**
 * The Command line pages' body (`CredentialsView`); the pair of a key just made shown once, with the login command
 * for this desk (`deskUrl`).
 */
export function CliKeysView({ deskUrl, ...props }: { view: AccessKeyView; meId: string; canManage: boolean; deskUrl: string }) {
  return (
    <CredentialsView
      {...props}
      kind={ACCESS_KEYS}
      created={(pair, onDone) => <NewKeyPair keyPair={pair} deskUrl={deskUrl} onDone={onDone} />}
    />
  );
}
