import "server-only";
import { createHash } from "node:crypto";

/** A number in [0, 1) fixed by (seed, instrument, label). */
export function unit(seed: string, key: string, label: string): number {
  return createHash("sha256").update(`${seed}:${key}:${label}`).digest().readUInt32LE(0) / 4294967296;
}

/** A stock's shares outstanding (`market:symbol` as the key): 300 million to 16.3 billion, fixed by the market's seed. */
export function sharesOutstanding(seed: string, key: string): number {
  return Math.floor(1e8 * (3 + 160 * unit(seed, key, "shares")));
}

/**
 * How many shares a stock trades on a full regular session, as its tape's volumes follow it: a share of its shares
 * outstanding fixed by the seed, 0.15 % to 0.8 % (a large company then trades tens of millions a day, a small one
 * hundreds of thousands, as real stocks do).
 */
export function regularSessionVolume(seed: string, key: string): number {
  return sharesOutstanding(seed, key) * (0.0015 + 0.0065 * unit(seed, key, "turnover"));
}
