/** Live progress lines for several jobs: redrawn in place on a terminal, one line per change otherwise. */
export class ProgressView {
  private readonly rows = new Map<string, string>();
  private readonly steps = new Map<string, string>();
  private drawn = 0;
  private readonly tty = Boolean(process.stdout.isTTY);

  update(key: string, label: string, status: string, percent: number, stage: string | null): void {
    const width = 28;
    const filled = Math.round((Math.max(0, Math.min(100, percent)) / 100) * width);
    const bar = "█".repeat(filled) + "░".repeat(width - filled);
    const line = `${label.padEnd(14)} ${bar} ${String(Math.round(percent)).padStart(3)}%  ${status.padEnd(9)} ${stage ?? ""}`;
    if (this.rows.get(key) === line) return;
    this.rows.set(key, line);
    if (!this.tty) {
      // Logs (CI, pipes): a line per status or stage change and per 10 % step, not per percent.
      const step = `${status} ${stage ?? ""} ${Math.floor(percent / 10)}`;
      if (this.steps.get(key) !== step) process.stdout.write(line + "\n");
      this.steps.set(key, step);
      return;
    }
    if (this.drawn) process.stdout.write(`\x1b[${this.drawn}A`);
    for (const row of this.rows.values()) process.stdout.write(`\x1b[2K${row}\n`);
    this.drawn = this.rows.size;
  }
}

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (c ?? "").padEnd(widths[i])).join("  ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
