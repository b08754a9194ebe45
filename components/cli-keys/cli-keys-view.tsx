"use client";
import { useState } from "react";
import type { CreatedAccessKey } from "@/lib/schemas/access-keys";
import { CreateKeyForm } from "./create-key-form";
import { KeysTable } from "./keys-table";
import { NewKeyPair } from "./new-key-pair";

/** Settings → Command line's body: the pair of a key just made (in this component's state only), the list, the form. */
export function CliKeysView({ meId, canManage, deskUrl }: { meId: string; canManage: boolean; deskUrl: string }) {
  const [created, setCreated] = useState<CreatedAccessKey>();
  return (
    <>
      {created ? <NewKeyPair keyPair={created} deskUrl={deskUrl} onDone={() => setCreated(undefined)} /> : null}
      <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
        <KeysTable meId={meId} canManage={canManage} />
        <CreateKeyForm onCreated={setCreated} />
      </div>
    </>
  );
}
