import "server-only";
import type { Engine } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { onChange } from "@/server/notices/listen";
import type { HubShare } from "./hub";

/** NOTIFY carries at most 8,000 bytes; a larger answer (a long tape) is not shared and each instance polls it. */
const MAX_SHARED_BYTES = 7_000;

/**
 * The market hubs of several app instances on one PostgreSQL database, told of each other's answers through the
 * desk's change-notice channel (`server/notices`: a `market` field, which no live stream forwards as a change). On
 * the embedded PGlite one process owns the database, so there is nobody to tell: `index.ts` shares only on a server.
 */
export function noticeShare(engine: () => Promise<Engine>): HubShare {
  return {
    publish(answer) {
      const text = JSON.stringify(answer);
      if (text.length > MAX_SHARED_BYTES) return;
      void engine()
        .then((db) => notifyChange(db, { topics: [], accounts: [], market: answer }))
        .catch(() => undefined);
    },
    listen(receive) {
      void engine()
        .then((db) => onChange(db, (n) => n.market && receive(n.market)))
        .catch(() => undefined);
    },
  };
}
