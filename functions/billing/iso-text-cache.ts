/**
 * The ISO text of the last date seen: the billing run formats the same window bounds and timestamps
 * for thousands of reports in a row, and toISOString costs as much as the rest of what it writes.
 */
export class IsoTextCache {
  private time = Number.NaN;
  private text = '';

  of(date: Date): string {
    const time = date.getTime();
    if (time !== this.time) {
      this.text = date.toISOString();
      this.time = time;
    }
    return this.text;
  }
}
