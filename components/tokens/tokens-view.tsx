"use client";
import Link from "next/link";
import { useState } from "react";
import type { TokenView } from "@/lib/schemas/token-list";
import type { CreatedToken } from "@/lib/schemas/tokens";
import { CreateTokenForm } from "./create-token-form";
import { NewTokenSecret } from "./new-token-secret";
import { TokensTable } from "./tokens-table";

const VIEWS: { view: TokenView; href: string; label: string }[] = [
  { view: "mine", href: "/settings/tokens", label: "My tokens" },
  { view: "all", href: "/settings/tokens/all", label: "Every staff member's" },
];

/** Whose tokens, for an administrator: two pages, each guarded by its own permission. */
function ViewTabs({ view }: { view: TokenView }) {
  return (
    <nav aria-label="Whose tokens" className="mb-3 flex gap-1 border-b border-slate-200">
      {VIEWS.map((v) => (
        <Link
          key={v.view}
          href={v.href}
          aria-current={v.view === view ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${v.view === view ? "border-blue-700 font-medium text-blue-800" : "border-transparent text-slate-600 hover:text-slate-900"}`}
        >
          {v.label}
        </Link>
      ))}
    </nav>
  );
}

/**
 * The Access tokens pages' body: for an administrator the tabs; the secret of a token just made (this component's
 * state only: a reload forgets it); the list; the form to make one (on one's own list).
 */
export function TokensView({ view, meId, canManage }: { view: TokenView; meId: string; canManage: boolean }) {
  const [created, setCreated] = useState<CreatedToken>();
  return (
    <>
      {canManage ? <ViewTabs view={view} /> : null}
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
