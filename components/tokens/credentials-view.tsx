"use client";
import { useState, type ReactNode } from "react";
import { ViewTabs } from "@/components/ui/view-tabs";
import type { PageState } from "@/lib/list-params";
import type { TokenView } from "@/lib/schemas/token-list";
import { CreateCredentialForm, type CredentialFormKind, type CredentialValues } from "./create-credential-form";
import type { Credential } from "./credential-columns";
import type { CredentialLists } from "./credential-lists";
import { CredentialsTable, type CredentialListKind } from "./credentials-table";

/**
 * A kind of staff credential on its settings pages (access tokens, the command line's access keys): its lists, its
 * tabs (their label, the own list's tab and address; everyone's is at `${href}/all`), what its list and its create
 * form have of their own.
 */
export interface CredentialPagesKind<T extends Credential, St extends PageState, V extends CredentialValues, C> {
  lists: CredentialLists<St>;
  tabs: { label: string; mine: string; href: string };
  list: CredentialListKind<T>;
  form: CredentialFormKind<V, C>;
}

/**
 * The pages' body of a kind of credential: for an administrator the tabs; the credential just made (this
 * component's state only: a reload forgets it), shown by `created`; the list; the form to make one (on one's own
 * list).
 */
export function CredentialsView<T extends Credential, St extends PageState, V extends CredentialValues, C>({
  kind,
  view,
  meId,
  canManage,
  created: show,
}: {
  kind: CredentialPagesKind<T, St, V, C>;
  view: TokenView;
  meId: string;
  canManage: boolean;
  created: (created: C, onDone: () => void) => ReactNode;
}) {
  const [created, setCreated] = useState<C>();
  const tabs: { view: TokenView; href: string; label: string }[] = [
    { view: "mine", href: kind.tabs.href, label: kind.tabs.mine },
    { view: "all", href: `${kind.tabs.href}/all`, label: "Every staff member's" },
  ];
  const table = <CredentialsTable kind={kind.list} lists={kind.lists} view={view} meId={meId} />;
  return (
    <>
      {canManage ? <ViewTabs label={kind.tabs.label} tabs={tabs} current={view} /> : null}
      {created ? show(created, () => setCreated(undefined)) : null}
      {view === "mine" ? (
        <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
          {table}
          <CreateCredentialForm kind={kind.form} invalidate={kind.lists.invalidate} onCreated={setCreated} />
        </div>
      ) : (
        table
      )}
    </>
  );
}
