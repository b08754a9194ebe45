import "server-only";
import { cache } from "react";
import { isNotFound } from "@/lib/errors";
import { getDb } from "@/server/db";
import { getMovementDetail } from "@/server/movement-list/detail";

/** The movement, read once a request by the layout (a real 404) and the page. */
export const findMovement = cache(async (kind: string, clientRequestId: string) =>
  getMovementDetail((await getDb()).engine, kind, clientRequestId).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e))),
);
