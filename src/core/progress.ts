/**
 * A progress line on stderr that works while the event loop is busy: tfjs work on wasm/cpu is
 * synchronous, so timer-driven bars (cli-progress) never get to render. Redrawn in place on a TTY
 * (at most 4 times a second), one plain line every 30 s otherwise (logs stay readable).
 */
export class ProgressLine {
  private last = 0;
  private shown = false;
  private readonly tty: boolean;
  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
  ) {
    this.tty = Boolean(stream.isTTY);
  }

  /** The last text held back by the rate limit: done() prints it, so a log ends with the final state. */
  private pending: string | undefined;

  update(text: string, force = false): void {
    if (this.quiet) return;
    const now = Date.now();
    if (!force && now - this.last < (this.tty ? 250 : 30000)) {
      this.pending = text;
      return;
    }
    this.pending = undefined;
    this.last = now;
    if (this.tty) {
      this.stream.write(`\r\x1b[K${text}`);
      this.shown = true;
    } else {
      this.stream.write(`${text}\n`);
    }
  }

  /** Ends the in-place line (call before printing anything else). */
  done(): void {
    if (this.pending !== undefined) this.update(this.pending, true);
    if (this.tty && this.shown) this.stream.write("\n");
    this.shown = false;
  }
}

export function bar(done: number, total: number, width = 24): string {
  const f = total > 0 ? Math.min(1, done / total) : 0;
  const k = Math.round(f * width);
  return `[${"#".repeat(k)}${"-".repeat(width - k)}] ${(100 * f).toFixed(0).padStart(3)}%`;
}

export function fmtDuration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return "?";
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m` : `${m}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
}
