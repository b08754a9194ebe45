"use client";
import { formFields } from "@/components/form/fields";
import { Options } from "@/components/ui/field";
import { Mono } from "@/components/ui/mono";
import type { TokenListParams, TokenRow, TokenView } from "@/lib/schemas/token-list";
import { createTokenSchema, TOKEN_EXPIRY_DAYS, type CreatedToken, type CreateTokenInput } from "@/lib/schemas/tokens";
import { createAccessToken, revokeAccessToken } from "@/server/actions/tokens";
import { credentialColumn, dayColumn } from "./credential-columns";
import { CredentialsView, type CredentialPagesKind } from "./credentials-view";
import { NewTokenSecret } from "./new-token-secret";
import { tokenLists } from "./query-keys";

const { SelectField } = formFields<CreateTokenInput>();

/**
 * Access tokens on the Access tokens pages, through their GET routes (a token created or revoked anywhere, an audit
 * entry with the `token` notice, reads them again): a token's prefix and expiry in the list; what will use it, what
 * it may do and how long it lives on the form.
 */
const TOKENS: CredentialPagesKind<TokenRow, TokenListParams, CreateTokenInput, CreatedToken> = {
  lists: tokenLists,
  tabs: { label: "Whose tokens", mine: "My tokens", href: "/settings/tokens" },
  list: {
    identifier: credentialColumn<TokenRow>("prefix", "Token", (t) => <Mono>{t.prefix}…</Mono>),
    days: [dayColumn<TokenRow>("expires", "Expires", (t) => t.expiresAt)],
    revoke: (t) => revokeAccessToken({ id: t.id }),
    confirm: (t, whose) => `Revoke the token “${t.name}” (${t.prefix}…)${whose}? Anything using it stops working at once.`,
    revoked: (t, whose) => `The token “${t.name}”${whose} is revoked.`,
    empty: { all: "No staff member has an access token yet.", mine: "You have no access tokens yet. Create one with the form." },
    rowTestId: (t) => `token-row-${t.prefix}`,
  },
  form: {
    title: "New access token",
    schema: createTokenSchema,
    defaultValues: { name: "", access: "read", expiresInDays: "30" },
    action: createAccessToken,
    nameHint: "What will use it, e.g. “Claude on my laptop”.",
    accessHint: "Write lets it act (where the desk's tools allow) as well as read.",
    more: (
      <SelectField name="expiresInDays" label="Expires after" required>
        <Options values={TOKEN_EXPIRY_DAYS} labels={(d) => `${d} days`} />
      </SelectField>
    ),
    submit: "Create token",
  },
};

/** The Access tokens pages' body (`CredentialsView`); the secret of a token just made shown once, with how to send it. */
export function TokensView(props: { view: TokenView; meId: string; canManage: boolean }) {
  return <CredentialsView {...props} kind={TOKENS} created={(token, onDone) => <NewTokenSecret token={token} onDone={onDone} />} />;
}
