import "server-only";
import { ApiError, illegal } from "./errors";

/**
 * What the sandbox accepts as input at all, before any route looks at it: a body of at most MAX_BODY_BYTES, JSON
 * nested at most MAX_DEPTH deep, strings of at most MAX_STRING characters and without NUL (which PostgreSQL text
 * cannot hold). Refusals are the upstream's error shape, naming the field.
 */
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_DEPTH = 32;
export const MAX_STRING = 4096;

export const tooLarge = () => new ApiError(413, "REQUEST_TOO_LARGE", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);

/** Reads a request body up to the limit, refusing it as soon as it is larger (announced or streamed). */
export async function readLimitedText(req: Request): Promise<string> {
  const announced = Number(req.headers.get("content-length") ?? "0");
  if (announced > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The same from Node's IncomingMessage, without building a WHATWG Request and stream around it (a large share of a
 * signed GET's cost): a request without a body answers "" at once; one with an announced length within the limit is
 * read straight from the socket stream (Node's parser stops at that length). Anything else (chunked, or announced
 * too large) returns undefined, and the caller takes readLimitedText.
 */
export async function readIncomingText(
  incoming: { headers: Record<string, string | string[] | undefined> } & AsyncIterable<Buffer>,
): Promise<string | undefined> {
  const length = incoming.headers["content-length"];
  if (incoming.headers["transfer-encoding"] !== undefined) return undefined;
  if (length === undefined) return "";
  const announced = Number(length);
  if (!Number.isInteger(announced) || announced > MAX_BODY_BYTES) return undefined;
  if (announced === 0) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Enough of a secret to recognise which one is set (the start-up banner), never enough to use it. */
export function maskSecret(secret: string): string {
  return secret.length <= 8 ? "••••" : `${secret.slice(0, 3)}…${secret.slice(-2)} (${secret.length} characters)`;
}

/** A string value the sandbox will store: bounded and free of NUL. */
export function checkString(value: string, field: string): void {
  if (value.includes("\u0000")) throw illegal(`${field} must not contain a NUL character.`);
  if (value.length > MAX_STRING) throw illegal(`${field} is longer than ${MAX_STRING} characters.`);
}

/** Walks a parsed body without recursion: depth, and every string (keys too) checked. */
export function checkJson(root: unknown): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: "body", depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      checkString(value, path);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_DEPTH) throw illegal(`The request body is nested deeper than ${MAX_DEPTH} levels (at ${path}).`);
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v]) : Object.entries(value);
    for (const [k, v] of entries) {
      if (!Array.isArray(value)) checkString(k, `${path} key`);
      const child = Array.isArray(value) ? `${path}${k}` : path === "body" ? k : `${path}.${k}`;
      stack.push({ value: v, path: child, depth: depth + 1 });
    }
  }
}
