import "server-only";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { defineAction } from "@/server/action-kit/define-action";
import type { Staff } from "@/server/auth/guard";
import type { AppDb } from "@/server/db";
import type { CredentialKind } from "./credentials";

/**
 * An action on a kind of staff credential (the tokens-*.ts and cli-keys-*.ts actions: create, revoke): the kind's
 * `own` permission (anyone's needs its `manage`, which the work checks), the input parsed with `input`, the audit
 * entry's target the credential (named by the input's `id` before the work, so a refusal's entry names it too, else
 * by the answer's once it exists), and the kind's settings page read again. The entry keeps the input, never the
 * answer: a created credential's secret is in the answer only.
 */
export function credentialAction<S extends z.ZodType<object>, T extends { id: string }>(
  name: string,
  kind: CredentialKind,
  input: S,
  work: (db: AppDb, staff: Staff, values: z.output<S>) => Promise<T>,
) {
  return defineAction({
    name,
    permission: kind.own,
    input,
    async run(values, { db, staff, audit }) {
      if ("id" in values && typeof values.id === "string") audit.target = `${kind.target}:${values.id}`;
      const done = await work(db, staff, values);
      audit.target = `${kind.target}:${done.id}`;
      revalidatePath(kind.page);
      return done;
    },
  });
}
