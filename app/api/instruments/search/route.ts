import { jsonRoute } from "@/server/http";
import { instrumentMaster } from "@/server/fundamentals/instrument-master";
import { instrumentSearchIn } from "@/lib/schemas/instrument-tabs";

/** The header's symbol search: instruments of the desk's instrument master (kept an hour) by symbol or name. */
export const GET = jsonRoute({ permission: "market:read", params: instrumentSearchIn }, ({ params }) =>
  instrumentMaster().search(params.q),
);
