"use client";
import { useState } from "react";
import { ViewTabs } from "@/components/ui/view-tabs";
import type { TokenView } from "@/lib/schemas/token-list";
import type { CreatedToken } from "@/lib/schemas/tokens";
import { CreateTokenForm } from "./create-token-form";
import { NewTokenSecret } from "./new-token-secret";
import { TokensTable } from "./tokens-table";

const VIEWS: { view: TokenView; href: string; label: string }[] = [
  { view: "mine", href: "/settings/tokens", label: "My tokens" },
  { view: "all", href: "/settings/tokens/all", label: "Every staff member's" },
];

/**
 * The Access tokens pages' body: for an administrator the tabs; the secret of a token just made (this component's
 * state only: a reload forgets it); the list; the form to make one (on one's own list).
 */
export function TokensView({ view, meId, canManage }: { view: TokenView; meId: string; canManage: boolean }) {
  const [created, setCreated] = useState<CreatedToken>();
  return (
    <>
      {canManage ? <ViewTabs label="Whose tokens" tabs={VIEWS} current={view} /> : null}
      {created ? <NewTokenSecret token={created} onDone={() => setCreated(undefined)} /> : null}
      {view === "mine" ? (
        <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
          <TokensTable view={view} meId={meId} />
          <CreateTokenForm onCreated={setCreated} />
        </div>
      ) : (
        <TokensTable view={view} meId={meId} />
      )}
    </>
  );
}
