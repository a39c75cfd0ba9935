import { compareUtf8 } from '../../values/utf8-order';
import { readAhead } from '../shared/concurrency';

/**
 * The actors meeting a condition, as the engine lists them (ascending by id, a page at a time),
 * walked beside profiles taken in the same `_id` order: each profile costs a comparison, and no
 * list of ids is ever sent to the engine. Pages are read one ahead, from the cursor's creation, so
 * the engine lists actors while the profiles are read.
 */
export class PerformerCursor {
  private readonly pages: AsyncIterator<readonly string[]>;
  private page: readonly string[] = [];
  private at = 0;
  private ended = false;

  constructor(pages: AsyncIterable<readonly string[]>) {
    this.pages = readAhead(pages);
  }

  /** Whether `id` is among the actors; ids must be asked in ascending order. */
  async has(id: string): Promise<boolean> {
    for (;;) {
      while (this.at < this.page.length && compareUtf8(this.page[this.at]!, id) < 0) this.at += 1;
      if (this.at < this.page.length) return this.page[this.at] === id;
      if (this.ended) return false;
      const next = await this.pages.next();
      if (next.done) this.ended = true;
      else {
        this.page = next.value;
        this.at = 0;
      }
    }
  }
}
