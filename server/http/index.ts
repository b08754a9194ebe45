import "server-only";
/** Route handlers: `jsonRoute`, `csvRoute` and `fileRoute` (guarded, parameters parsed, failures mapped, downloads audited). */
export { jsonRoute, openJsonRoute } from "./route";
export { csvRoute } from "./csv";
export { fileRoute, type FileBody } from "./file";
