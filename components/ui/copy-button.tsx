"use client";
import { useState } from "react";
import { Button } from "./button";

/** Copies a text to the clipboard; says "Copied", or that the browser refused (then the person selects and copies it). */
export function CopyButton({ text, label = "Copy", what }: { text: string; label?: string; what: string }) {
  const [copied, setCopied] = useState<"yes" | "no">();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Button size="md" variant="secondary" aria-label={`${label} ${what}`} onClick={() => void copy()}>
        {copied === "yes" ? "Copied" : label}
      </Button>
      {copied === "no" ? <span className="text-xs">The browser did not allow copying: select the text and copy it yourself.</span> : null}
    </span>
  );
}

/** A read-only value (a secret shown once, a command, a URI) that selects itself on focus, with its copy button. */
export function CopyableValue({ value, label }: { value: string; label: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <input
        readOnly
        aria-label={label}
        value={value}
        onFocus={(e) => e.currentTarget.select()}
        // text-sm: at the desk's text-xs Chromium draws this monospace font's underscores in an input as nothing
        className="h-8 min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 font-mono text-sm text-slate-900"
      />
      <CopyButton text={value} what={label} />
    </div>
  );
}
