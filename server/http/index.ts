import "server-only";
/** Route handlers: `jsonRoute` and `csvRoute` (guarded, parameters parsed, failures mapped, exports audited). */
export { jsonRoute, openJsonRoute } from "./route";
export { csvRoute } from "./csv";
