import { open, type FileHandle } from 'node:fs/promises';

/**
 * An append-only file whose appends resolve only once their bytes are on disk (fdatasync). Appends
 * that arrive while a sync is in flight are written and synced together by the next one (group
 * commit), so many concurrent writers share one sync instead of queueing one each.
 */
export class DurableAppendFile {
  private waiting: { buffers: Buffer[]; done: () => void; failed: (error: Error) => void }[] = [];
  /** The flush in progress, if any: appends that arrive meanwhile wait for the next one. */
  private flushing: Promise<void> | undefined;
  private bytesWritten: number;

  private constructor(
    private readonly handle: FileHandle,
    size: number,
  ) {
    this.bytesWritten = size;
  }

  /** Opens (or creates) the file for appending; `size` is where appends start (earlier bytes are kept). */
  static async open(path: string): Promise<DurableAppendFile> {
    const handle = await open(path, 'a');
    const { size } = await handle.stat();
    return new DurableAppendFile(handle, size);
  }

  /** Bytes in the file, counting appends written but not yet synced. */
  get size(): number {
    return this.bytesWritten;
  }

  append(buffers: Buffer[]): Promise<void> {
    return new Promise((done, failed) => {
      this.waiting.push({ buffers, done, failed });
      this.flushing ??= this.flush();
    });
  }

  async close(): Promise<void> {
    await this.flushing;
    await this.handle.close();
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting;
      this.waiting = [];
      const bytes = Buffer.concat(group.flatMap((append) => append.buffers));
      try {
        for (let offset = 0; offset < bytes.length; ) {
          const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset);
          offset += bytesWritten;
        }
        this.bytesWritten += bytes.length;
        await this.handle.datasync();
        group.forEach((append) => append.done());
      } catch (error) {
        // A torn append would hide every later one from the reader: cut the file back to its last whole append.
        await this.handle.truncate(this.bytesWritten).catch(() => {});
        group.forEach((append) => append.failed(error as Error));
      }
    }
    this.flushing = undefined;
  }
}
