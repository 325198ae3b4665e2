import { createHash } from "node:crypto";

/** Hex sha256 of a buffer (checkpoint files, embeddings, resume keys). */
export function sha256(buf: Uint8Array): string {
  return createHash("sha256").update(buf).digest("hex");
}
