import "server-only";
import { createHash } from "node:crypto";
import { parseEnvelope } from "@/server/books/changes";
import { fromEnvelope, type Incoming } from "@/server/books/ingest";

/** A stream message's payload as an event to store: parsed and interpreted, or kept raw as malformed. */
export function fromStream(raw: string): Incoming {
  const parsed = parseEnvelope(raw);
  if (!parsed.ok) {
    return {
      event_id: `malformed:${createHash("sha256").update(raw).digest("hex").slice(0, 40)}`,
      source: "stream",
      event_type: "MALFORMED",
      raw: raw.slice(0, 10_000),
      outcome: "malformed",
      changes: [],
    };
  }
  return fromEnvelope(parsed.envelope, "stream");
}
