"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Mono } from "@/components/ui/mono";
import { formatDateTime } from "@/lib/format";
import type { CreatedToken } from "@/lib/schemas/tokens";

/**
 * The secret of a token just created, shown this once: the desk keeps only its hash, and a reload forgets it. A
 * copy button, the way to send it, and a way to put it away.
 */
export function NewTokenSecret({ token, onDone }: { token: CreatedToken; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "no">();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.secret);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  };
  return (
    <section
      aria-label="New token"
      className="mb-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
      data-testid="new-token-secret"
    >
      <h2 className="font-semibold">Copy your new token “{token.name}” now: you will not see it again.</h2>
      <p className="mt-0.5 text-xs">
        The desk keeps only a fingerprint of it. Store it where your assistant or automation reads its secrets; if it is lost, revoke it and
        create another. It expires on {formatDateTime(token.expiresAt)}.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input
          readOnly
          aria-label="Token secret"
          value={token.secret}
          onFocus={(e) => e.currentTarget.select()}
          // text-sm: at the desk's text-xs (10.5 px) Chromium draws this monospace font's underscores in an input as nothing
          className="h-8 min-w-0 flex-1 rounded border border-amber-300 bg-white px-2 font-mono text-sm text-slate-900"
        />
        <Button size="md" onClick={() => void copy()}>
          {copied === "yes" ? "Copied" : "Copy"}
        </Button>
        <Button size="md" variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
      {copied === "no" ? <p className="mt-1 text-xs">The browser did not allow copying: select the token and copy it yourself.</p> : null}
      <p className="mt-2 text-xs">
        Send it as <Mono>Authorization: Bearer {token.prefix}…</Mono>; <Mono>GET /api/tokens/me</Mono> answers who it acts for.
      </p>
    </section>
  );
}
