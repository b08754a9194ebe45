import "server-only";
import { userMessageOf } from "@/lib/errors";
import type { MovementAccount } from "@/lib/schemas/movement-form-data";
import { getDb } from "@/server/db";
import { findMovementAccount } from "@/server/movements/form-data";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The accounts a form was opened with (`?from=&to=&account=`, e.g. from an account page, by id or number), read
 * once on the server; an unknown one is named in `problems` and left for the person to choose.
 */
export async function prefill(searchParams: SearchParams, names: readonly ("from" | "to" | "account")[]) {
  const params = await searchParams;
  const accounts: Partial<Record<"from" | "to" | "account", MovementAccount>> = {};
  const problems: string[] = [];
  const { engine } = await getDb();
  await Promise.all(
    names.map(async (name) => {
      const raw = params[name];
      const written = typeof raw === "string" ? raw.trim().slice(0, 64) : "";
      if (!written) return;
      try {
        const account = await findMovementAccount(engine, written);
        if (account) accounts[name] = account;
        else problems.push(`No account ${written}.`);
      } catch (error) {
        problems.push(userMessageOf(error, `The account ${written} could not be read.`));
      }
    }),
  );
  return { accounts, problems, params };
}
