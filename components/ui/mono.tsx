import type { ReactNode } from "react";

/** An identifier (URL, key, id) in small monospace, as the desk's detail panels show them. */
export function Mono({ children }: { children: ReactNode }) {
  return <code className="font-mono text-xs">{children}</code>;
}
