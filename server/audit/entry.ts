import "server-only";
import { createHash } from "node:crypto";
import type { AuditChannel } from "@/lib/schemas/audit";

/**
 * The staff audit trail: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE) and hash-chained, so that
 * a change made behind the trigger's back (by a superuser, on the disk) is found by verifyAuditChain().
 */
export interface AuditInput {
  actorId?: string | null;
  actorEmail?: string | null;
  actorRole?: string | null;
  action: string;
  target?: string | null;
  input?: unknown;
  upstreamRequestId?: string | null;
  idempotencyKey?: string | null;
  /** "held": an approval policy stopped the work and asked for a second person's approval (action-kit/define-action.ts). */
  outcome: AuditOutcome;
  errorCode?: string | null;
  clientIp?: string | null;
  userAgent?: string | null;
  /** The channel of a call that did not come through the pages, and the staff access token that made it. */
  channel?: AuditChannel | null;
  tokenId?: string | null;
}

export type AuditOutcome = "success" | "failure" | "denied" | "held";

export interface AuditRow extends Required<Omit<AuditInput, "input">> {
  seq: number;
  at: Date;
  input: unknown;
  prevHash: string;
  hash: string;
}

export const GENESIS_HASH = "0".repeat(64);

// Secrets, and the PII that is masked for most roles (tax ids, addresses, identity document numbers): the trail is
// read by compliance and exported, so it must not become a way around the masking.
const SECRET_KEY = /pass(word)?|secret|token|signature|tax_?id|address|id_number|^otp$/i;

/** Removes secrets and masked PII from an action's input before it is written. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : redactSecrets(v)]),
    );
  }
  return value;
}

/** JSON with sorted keys, so the same entry always hashes the same way (jsonb reorders keys). */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value as object)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What an entry's hash covers (the channel and token only when set). */
type HashedEntry = Omit<AuditRow, "seq" | "hash" | "prevHash" | "channel" | "tokenId"> & Partial<Pick<AuditRow, "channel" | "tokenId">>;

export function entryHash(prevHash: string, e: HashedEntry): string {
  const body = canonicalJson({
    at: e.at.toISOString(),
    actorId: e.actorId,
    actorEmail: e.actorEmail,
    actorRole: e.actorRole,
    action: e.action,
    target: e.target,
    input: e.input,
    upstreamRequestId: e.upstreamRequestId,
    idempotencyKey: e.idempotencyKey,
    outcome: e.outcome,
    errorCode: e.errorCode,
    clientIp: e.clientIp,
    userAgent: e.userAgent,
    // Set only for the assistant channels: entries written before the column existed hash as they did.
    channel: e.channel ?? undefined,
    tokenId: e.tokenId ?? undefined,
  });
  return createHash("sha256").update(`${prevHash}\n${body}`).digest("hex");
}

/** The most of an input an entry keeps: a denied or invalid call's raw input is whatever the caller sent. */
export const MAX_AUDIT_INPUT_BYTES = 8 * 1024;

/** NUL cannot be stored in jsonb: a NUL in any string or key of an input is kept as U+FFFD. */
function withoutNul(value: unknown): unknown {
  if (typeof value === "string") return value.includes("\u0000") ? value.replaceAll("\u0000", "\uFFFD") : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k.replaceAll("\u0000", "\uFFFD"), withoutNul(v)]),
    );
  }
  return value;
}

/** The input as stored: itself when small, else its size and a readable beginning (the trail is append-only). */
export function boundedInput(value: unknown): unknown {
  const json = JSON.stringify(withoutNul(value)) ?? "null";
  if (Buffer.byteLength(json) <= MAX_AUDIT_INPUT_BYTES) return JSON.parse(json);
  return { truncated: true, bytes: Buffer.byteLength(json), preview: json.slice(0, 1024) };
}
