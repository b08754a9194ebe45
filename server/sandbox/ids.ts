import "server-only";
import { createHash, randomBytes } from "node:crypto";

/**
 * 32 lowercase hex characters, the upstream's account id format; used for every sandbox id. The random bytes come
 * from a 4 KiB buffer refilled when used up (one call to the CSPRNG per 256 ids, not one per id).
 */
let entropy = Buffer.alloc(0);
let used = 0;
export function newId(): string {
  if (used + 16 > entropy.length) [entropy, used] = [randomBytes(4096), 0];
  used += 16;
  return entropy.toString("hex", used - 16, used);
}
/** Deterministic id from a label: the seed and derived records (activities) use it so reruns give the same ids. */
export const idFrom = (label: string) => createHash("sha256").update(label).digest("hex").slice(0, 32);

/** Sorted-key JSON: two bodies with the same content hash the same whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export const bodyHash = (body: unknown) => createHash("sha256").update(canonicalJson(body)).digest("hex");

export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
