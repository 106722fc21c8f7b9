/** Lower-case hex of bytes (hashes, random ids). */
export function encodeHex(data: ArrayBuffer | Uint8Array): string {
  return Array.from(data instanceof Uint8Array ? data : new Uint8Array(data))
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
