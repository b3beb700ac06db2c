/**
 * Admission for image decodes by what they cost: at most `maxRunning` at once, and together at most
 * `maxPixels` input pixels (a decode's memory follows its pixels, not its file size: a plain 36-megapixel PNG
 * of a few kilobytes takes well over 100 MB to decode). The largest image allowed runs alone; small ones run
 * side by side. Waiting decodes start strictly in the order they came, so a large image is never passed over
 * by a stream of small ones; none is refused. p-limit counts tasks and cannot weigh them, hence this.
 */
export class DecodeBudget {
  private running = 0;
  private pixels = 0;
  private readonly waiting: { weight: number; start: () => void }[] = [];

  constructor(
    private readonly maxRunning: number,
    private readonly maxPixels: number,
  ) {}

  /** Runs `work` once `pixels` fit (more than the whole budget count as the whole budget). */
  async run<T>(pixels: number, work: () => Promise<T>): Promise<T> {
    const weight = Math.min(Math.max(Math.ceil(pixels), 1), this.maxPixels);
    if (this.waiting.length === 0 && this.fits(weight)) this.take(weight);
    else await new Promise<void>((start) => this.waiting.push({ weight, start }));
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.pixels -= weight;
      this.startWaiting();
    }
  }

  /** Decodes running now, those waiting, and the input pixels of those running. */
  get load(): { decoding: number; waiting: number; pixels: number } {
    return { decoding: this.running, waiting: this.waiting.length, pixels: this.pixels };
  }

  private fits(weight: number): boolean {
    return this.running < this.maxRunning && this.pixels + weight <= this.maxPixels;
  }

  private take(weight: number): void {
    this.running += 1;
    this.pixels += weight;
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0].weight)) {
      const next = this.waiting.shift()!;
      this.take(next.weight);
      next.start();
    }
  }
}
