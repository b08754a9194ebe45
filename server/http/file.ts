import "server-only";
import { errorCodeOf, errorResponse } from "./errors";
import { authorizeDownload } from "./audited";
import { parseParams, timed, type RouteContext, type RouteHandler, type RouteSpec } from "./route";

export interface FileSpec<P> extends RouteSpec<P> {
  /** Audit action of the download, e.g. "statements.download". */
  action: string;
  /** What the audit entry records as the download's filter and target (default: the parameters, no target). */
  filter?: (params: P) => unknown;
  target?: (params: P) => string;
}

/** A file the work made: its bytes, type and name (the name as the browser saves it). */
export interface FileBody {
  body: Uint8Array;
  contentType: string;
  filename: string;
}

/**
 * A guarded binary download (a PDF, a zip), made whole before answering, and audited once like the CSV exports:
 * success with the file's name and size once it is made, failure with the error code when making it failed, denied
 * without the permission. The same guard, parameters and error answers as jsonRoute.
 */
export function fileRoute<P = undefined>(spec: FileSpec<P>, work: (ctx: RouteContext<P>) => Promise<FileBody>): RouteHandler {
  return timed(async (request, context) => {
    const auth = await authorizeDownload(request, spec.action, spec.permission);
    if ("response" in auth) return auth.response;
    const { staff, audit } = auth;
    let filter: unknown;
    let target: string | undefined;
    try {
      const params = parseParams(spec.params, request, (await context?.params) ?? {});
      filter = spec.filter ? spec.filter(params) : params;
      target = spec.target?.(params);
      const file = await work({ staff, params, request });
      await audit(staff, { input: { filter, file: file.filename, bytes: file.body.byteLength }, outcome: "success", target });
      return new Response(file.body as BodyInit, {
        headers: {
          "content-type": file.contentType,
          "content-length": String(file.body.byteLength),
          "content-disposition": `attachment; filename="${file.filename.replace(/[^\w.-]/g, "_")}"`,
          "cache-control": "no-store",
        },
      });
    } catch (error) {
      await audit(staff, { input: { filter }, outcome: "failure", errorCode: errorCodeOf(error), target });
      return errorResponse(error);
    }
  });
}
