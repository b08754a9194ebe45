"use client";
import { useState } from "react";
import { ViewTabs } from "@/components/ui/view-tabs";
import type { AccessKeyView } from "@/lib/schemas/access-key-list";
import type { CreatedAccessKey } from "@/lib/schemas/access-keys";
import { CreateKeyForm } from "./create-key-form";
import { KeysTable } from "./keys-table";
import { NewKeyPair } from "./new-key-pair";

const VIEWS: { view: AccessKeyView; href: string; label: string }[] = [
  { view: "mine", href: "/settings/cli", label: "My access keys" },
  { view: "all", href: "/settings/cli/all", label: "Every staff member's" },
];

/**
 * The Command line pages' body: for an administrator the tabs; the pair of a key just made (this component's state
 * only: a reload forgets it) with the login command; the list; the form to make one (on one's own list).
 */
export function CliKeysView({
  view,
  meId,
  canManage,
  deskUrl,
}: {
  view: AccessKeyView;
  meId: string;
  canManage: boolean;
  deskUrl: string;
}) {
  const [created, setCreated] = useState<CreatedAccessKey>();
  return (
    <>
      {canManage ? <ViewTabs label="Whose access keys" tabs={VIEWS} current={view} /> : null}
      {created ? <NewKeyPair keyPair={created} deskUrl={deskUrl} onDone={() => setCreated(undefined)} /> : null}
      {view === "mine" ? (
        <div className="grid gap-5 xl:grid-cols-[1fr_20rem]">
          <KeysTable view={view} meId={meId} />
          <CreateKeyForm onCreated={setCreated} />
        </div>
      ) : (
        <KeysTable view={view} meId={meId} />
      )}
    </>
  );
}
