"use client";
import { Button } from "@/components/ui/button";
import { CopyableValue } from "@/components/ui/copy-button";
import type { CreatedAccessKey } from "@/lib/schemas/access-keys";

/**
 * The pair of a key just created, shown this once (a reload forgets it: the desk never shows the secret key again),
 * with the command that logs in with it. The secret key is not in the command: `brokerdesk login` asks for it,
 * so it stays out of the shell's history.
 */
export function NewKeyPair({ keyPair, deskUrl, onDone }: { keyPair: CreatedAccessKey; deskUrl: string; onDone: () => void }) {
  const command = `brokerdesk login --desk ${deskUrl} --access-key ${keyPair.id}`;
  return (
    <section
      aria-label="New access key"
      className="mb-4 flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
      data-testid="new-access-key"
    >
      <h2 className="font-semibold">Copy the secret key of “{keyPair.name}” now: you will not see it again.</h2>
      <p className="text-xs">
        Keep it where only you can read it. If it is lost, revoke the key and create another. Logging in also asks for the code of the
        authenticator you set up on Settings → Security.
      </p>
      <CopyableValue label="Access key id" value={keyPair.id} />
      <CopyableValue label="Secret key" value={keyPair.secret} />
      <p className="mt-1 text-xs font-medium">Then run, and paste the secret key when asked:</p>
      <CopyableValue label="Login command" value={command} />
      <div>
        <Button size="md" variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}
