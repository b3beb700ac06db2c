import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CpuPressure } from './cpu-pressure';

describe('CpuPressure', () => {
  let dir: string;
  let file: string;
  const write = (totalUs: number) =>
    writeFileSync(file, `some avg10=0.00 avg60=0.00 avg300=0.00 total=${totalUs}\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n`);

  beforeEach(() => {
    jest.useFakeTimers();
    dir = mkdtempSync(join(tmpdir(), 'plink-pressure-'));
    file = join(dir, 'cpu');
  });
  afterEach(() => {
    jest.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the share of the last interval in which some task waited for a CPU', () => {
    const pressure = new CpuPressure(file);
    write(5_000_000);
    expect(pressure.share()).toBe(0); // one reading: no interval yet
    write(5_000_000 + 125_000); // 125 ms of waiting in the next 250 ms
    jest.advanceTimersByTime(250);
    expect(pressure.share()).toBeCloseTo(0.5, 5);
    write(5_000_000 + 125_000 + 250_000); // waiting the whole next interval
    jest.advanceTimersByTime(250);
    expect(pressure.share()).toBeCloseTo(1, 5);
    jest.advanceTimersByTime(250); // nothing waited
    expect(pressure.share()).toBe(0);
    pressure.close();
  });

  it('is 0 where the kernel does not tell, and when the file goes away', () => {
    const missing = new CpuPressure(join(dir, 'absent'));
    expect(missing.share()).toBe(0);
    jest.advanceTimersByTime(1_000);
    expect(missing.share()).toBe(0);
    missing.close();

    const pressure = new CpuPressure(file);
    write(0);
    pressure.share();
    write(250_000);
    jest.advanceTimersByTime(250);
    expect(pressure.share()).toBeCloseTo(1, 5);
    rmSync(file);
    jest.advanceTimersByTime(250);
    expect(pressure.share()).toBe(0);
    pressure.close();
  });
});
