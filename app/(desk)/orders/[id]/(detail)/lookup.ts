import "server-only";
import { cache } from "react";
import { isNotFound } from "@/lib/errors";
import { getDb } from "@/server/db";
import { getOrderDetail } from "@/server/orders/detail";

/** The order, read once a request by the layout (a real 404) and the page. */
export const findOrder = cache(async (id: string) =>
  getOrderDetail((await getDb()).engine, id).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e))),
);
