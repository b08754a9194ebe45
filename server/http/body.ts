import "server-only";
import { AppError, isAppError } from "@/lib/errors";
import { errorJson } from "./errors";

/**
 * Request bodies the desk's own routes read, with a byte cap (Next sets none on route handlers): a declared
 * Content-Length over the cap is refused before a byte is read, and a body sent without one (chunked) or with a
 * false one is refused as soon as more than the cap has arrived, the rest never read. The refusal is
 * `REQUEST_TOO_LARGE`, answered 413 (`bodyTooLargeResponse`).
 */

/** What a signed command-line request or a skill call may carry (tool inputs are small; the MCP SDK caps at 4 MiB). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** What a small form of anonymous callers may carry (the status mail's subscribe form and its links' POSTs). */
export const FORM_LIMIT_BYTES = 16 * 1024;

const CODE = "REQUEST_TOO_LARGE";

class BodyTooLargeError extends AppError {
  constructor(readonly limit: number) {
    super(CODE, `request body over ${limit} bytes`, `The request body is larger than ${limit} bytes.`);
    this.name = "BodyTooLargeError";
  }
}

/** Whether a failure is a body refused by its size. */
export const isBodyTooLarge = (e: unknown): e is BodyTooLargeError => isAppError(e) && e.code === CODE;

/** The 413 answer of a body refused by its size (`{ error: "REQUEST_TOO_LARGE", message }`, no-store). */
export function bodyTooLargeResponse(e: BodyTooLargeError): Response {
  return errorJson(413, { error: CODE, message: e.userMessage });
}

interface ReadOptions {
  /** The cap in bytes (BODY_LIMIT_BYTES unless given). */
  limit?: number;
  /** Read a copy (`request.clone()`, made once the length is known not to be over), leaving the request unread. */
  copy?: boolean;
}

/** The request's body bytes, at most `limit` of them; throws REQUEST_TOO_LARGE (isBodyTooLarge) past that. */
export async function readBody(
  request: Request,
  { limit = BODY_LIMIT_BYTES, copy = false }: ReadOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new BodyTooLargeError(limit);
  const body = copy ? request.clone().body : request.body;
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // Not awaited: a copy's cancel settles only once the request it was copied from is cancelled too.
        reader.cancel().catch(() => undefined);
        throw new BodyTooLargeError(limit);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = Buffer.concat(chunks);
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}

/** The same as UTF-8 text. */
export async function readBodyText(request: Request, options?: ReadOptions): Promise<string> {
  return new TextDecoder().decode(await readBody(request, options));
}

/** The request's form (URL-encoded or multipart) read within `limit`; undefined when the body is not a form. */
export async function readForm(request: Request, options: ReadOptions = { limit: FORM_LIMIT_BYTES }): Promise<FormData | undefined> {
  const bytes = await readBody(request, options);
  const headers = { "content-type": request.headers.get("content-type") ?? "" };
  return new Response(bytes, { headers }).formData().catch(() => undefined);
}
