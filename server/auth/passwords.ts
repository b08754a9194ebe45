import "server-only";
import { hash, verify } from "@node-rs/argon2";

// argon2id (the library's default algorithm) with OWASP's suggested cost: 19 MiB, 2 passes.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the email is unknown, so a miss costs the same time as a hit.
let dummyHash: Promise<string> | undefined;
export async function burnVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword("brokerdesk-no-such-user");
  await verifyPassword(await dummyHash, password);
}
