import "server-only";
/** Route handlers: `jsonRoute` and `csvRoute` (guarded, parameters parsed, failures mapped, exports audited). */
export { jsonRoute, type RouteContext, type RouteSpec, type ParamsSpec, type RouteHandler } from "./route";
export { csvRoute, type CsvSpec, type CsvValue } from "./csv";
export { errorResponse, type ApiErrorBody } from "./errors";
