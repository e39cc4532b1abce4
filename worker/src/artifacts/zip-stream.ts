import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

export interface ZipEntrySource {
  name: string;
  /** Opened lazily, one file at a time, so only one object body is in flight. */
  open(): Promise<ReadableStream<Uint8Array> | null>;
  /** Videos and images are already compressed: store them. Text compresses well. */
  compress: boolean;
  mtime?: Date;
}

/**
 * Builds a ZIP as a pull-driven stream: each pull reads one chunk of the current file and pushes it through
 * fflate, so memory stays at a chunk or two whatever the archive size. Missing files are skipped (a file
 * deleted between listing and zipping must not break the archive).
 */
export function zipStream(entries: ZipEntrySource[]): ReadableStream<Uint8Array> {
  let controllerRef: ReadableStreamDefaultController<Uint8Array>;
  let failed: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      failed = err;
      return;
    }
    if (chunk.length) controllerRef.enqueue(chunk);
    if (final) controllerRef.close();
  });

  let index = 0;
  let current: { file: ZipPassThrough | ZipDeflate; reader: ReadableStreamDefaultReader<Uint8Array> } | null = null;

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
      },
      async pull(controller) {
        if (failed) return controller.error(failed);
        // Keep going until fflate has produced output for this pull (or the archive ended).
        for (;;) {
          if (!current) {
            if (index >= entries.length) {
              zip.end();
              return;
            }
            const entry = entries[index++];
            const body = await entry.open();
            if (!body) continue;
            const file = entry.compress ? new ZipDeflate(entry.name, { level: 6 }) : new ZipPassThrough(entry.name);
            if (entry.mtime) file.mtime = entry.mtime;
            zip.add(file);
            current = { file, reader: body.getReader() };
          }
          const { value, done } = await current.reader.read();
          if (done) {
            current.file.push(new Uint8Array(0), true);
            current = null;
          } else if (value?.length) {
            current.file.push(value);
          }
          if (failed) return controller.error(failed);
          if ((controller.desiredSize ?? 1) <= 0 || done) return;
        }
      },
      async cancel() {
        await current?.reader.cancel().catch(() => undefined);
        zip.terminate();
      },
    },
    { highWaterMark: 2 },
  );
}
