import "server-only";
import { cache } from "react";
import { isNotFound } from "@/lib/errors";
import { getDb } from "@/server/db";
import { getBreak } from "@/server/reconciliation/breaks";

/** The break, read once a request by the layout (a real 404) and the page. */
export const findBreak = cache(async (id: string) =>
  getBreak((await getDb()).engine, id).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e))),
);
