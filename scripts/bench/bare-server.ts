import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { openEngine } from "@/server/db/engine";

/**
 * The reference of `npm run bench`: the same hono and @hono/node-server versions as the sandbox, one JSON route,
 * nothing else (no middleware, no database). The bench signs its calls like the sandbox's; this route ignores that.
 *
 * Given a database (FLOOR_DATABASE_URL, or FLOOR_DATA_DIR for PGlite), two more routes give the floor of any route
 * that uses it, through the same engine as the sandbox's (its pool, or PGlite in this process): `GET /floor/read`
 * runs `SELECT 1`, `POST /floor/write` inserts one row. No signature check, no validation, no JSON from the database.
 * Listens on 127.0.0.1:PORT; stopped by SIGTERM to its process group.
 */
const app = new Hono();
app.get("/bare", (c) => c.json({ status: "ok", data: [{ id: 1, name: "bare" }] }));
const url = process.env.FLOOR_DATABASE_URL;
const dataDir = process.env.FLOOR_DATA_DIR;
if (url || dataDir) {
  const engine = await openEngine(url ? { url } : { dataDir });
  await engine.query("CREATE TABLE IF NOT EXISTS public.bench_floor (id bigserial PRIMARY KEY, note text NOT NULL)");
  app.get("/floor/read", async (c) => c.json((await engine.query("SELECT 1 AS one")).rows));
  app.post("/floor/write", async (c) =>
    c.json(
      (await engine.query("INSERT INTO public.bench_floor (note) VALUES ($1) RETURNING id", [c.req.header("x-signature-nonce") ?? ""]))
        .rows,
    ),
  );
}
serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT) }, () => console.log("ready"));
