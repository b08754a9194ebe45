import "server-only";
import { cache } from "react";
import { isNotFound } from "@/lib/errors";
import { getApproval } from "@/server/approvals/requests";
import { getDb } from "@/server/db";

/** The request (expired first when due), read once a request by the layout (a real 404) and the page. */
export const findApproval = cache(async (id: string) =>
  getApproval(await getDb(), id).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e))),
);
