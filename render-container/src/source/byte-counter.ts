/** Bytes received from the CDN, counted as they arrive (failed attempts included: they were downloaded too). */
export class ByteCounter {
  private count = 0;

  add(bytes: number): void {
    this.count += bytes;
  }

  get total(): number {
    return this.count;
  }
}
