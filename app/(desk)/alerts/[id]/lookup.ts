import "server-only";
import { cache } from "react";
import { isNotFound } from "@/lib/errors";
import { getDb } from "@/server/db";
import { getAlert } from "@/server/surveillance/queries/alerts";

/** The alert, read once a request by the layout (a real 404) and the page. */
export const findAlert = cache(async (id: string) =>
  getAlert((await getDb()).engine, id).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e))),
);
