import { serve } from "@hono/node-server";
import { Hono } from "hono";

/**
 * The reference of `npm run bench`: the same hono and @hono/node-server versions as the sandbox, one JSON route,
 * nothing else (no middleware, no database). The bench signs its calls like the sandbox's; this route ignores that.
 * Listens on 127.0.0.1:PORT; stopped by SIGTERM to its process group.
 */
const app = new Hono();
app.get("/bare", (c) => c.json({ status: "ok", data: [{ id: 1, name: "bare" }] }));
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT) }, () => console.log("ready"));
