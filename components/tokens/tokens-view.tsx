"use client";
import { useState } from "react";
import type { CreatedToken } from "@/lib/schemas/tokens";
import { CreateTokenForm } from "./create-token-form";
import { NewTokenSecret } from "./new-token-secret";
import { TokensTable } from "./tokens-table";

/** The Access tokens page's body: the secret of a token just made (in this component's state only), the list, the form. */
export function TokensView({ meId, canManage }: { meId: string; canManage: boolean }) {
  const [created, setCreated] = useState<CreatedToken>();
  return (
    <>
      {created ? <NewTokenSecret token={created} onDone={() => setCreated(undefined)} /> : null}
      <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
        <TokensTable meId={meId} canManage={canManage} />
        <CreateTokenForm onCreated={setCreated} />
      </div>
    </>
  );
}
