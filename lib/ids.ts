export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const TIME_CHARS = 9; // base36 epoch ms stays 9 chars until the year 5188
const RANDOM_CHARS = 14; // ~83 bits

function randomBase62(count: number): string {
  let out = "";
  while (out.length < count) {
    const bytes = new Uint8Array(count * 2);
    globalThis.crypto.getRandomValues(bytes);
    for (const b of bytes) {
      const v = b & 63; // rejection sampling keeps the alphabet uniform
      if (v < 62) out += BASE62[v];
      if (out.length === count) break;
    }
  }
  return out;
}

/**
 * A new unique client id: optional prefix (letters/digits, ≤8 chars) + "_" + time (sortable) + randomness.
 * E.g. `ord_m3k2q9x1a7Fq0ZrP2bLk9cXw`.
 */
export function newClientId(prefix?: string): string {
  const time = Date.now().toString(36).padStart(TIME_CHARS, "0");
  const body = time + randomBase62(RANDOM_CHARS);
  if (!prefix) return body;
  const clean = prefix.replace(/[^A-Za-z0-9]/g, "").slice(0, 8);
  return clean ? `${clean}_${body}` : body;
}

export function isClientId(value: unknown): value is string {
  return typeof value === "string" && CLIENT_ID_PATTERN.test(value);
}
