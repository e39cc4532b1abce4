/**
 * Base64 built from bytes as they arrive: each push encodes whole 3-byte groups at once (a group never straddles
 * two pieces, so the pieces join into the same text as one encoding of all the bytes) and keeps at most two bytes
 * for the next. The bytes themselves are not kept, so a streamed file is never held whole next to its base64.
 */
export class Base64Pieces {
  private readonly pieces: string[] = [];
  private carry = new Uint8Array(0);
  bytes = 0;

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    let bytes = chunk;
    if (this.carry.length) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
    }
    const whole = bytes.length - (bytes.length % 3);
    if (whole > 0) this.pieces.push(base64Of(bytes.subarray(0, whole)));
    this.carry = bytes.slice(whole);
  }

  /** The base64 of every byte pushed (padded); the pieces are dropped. */
  finish(): string {
    if (this.carry.length) this.pieces.push(base64Of(this.carry));
    this.carry = new Uint8Array(0);
    const text = this.pieces.join("");
    this.pieces.length = 0;
    return text;
  }
}

/** Standard base64: the runtime's Uint8Array#toBase64 where it has one, else btoa over 32 KiB slices. */
export function base64Of(bytes: Uint8Array): string {
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (typeof native === "function") return native.call(bytes);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
