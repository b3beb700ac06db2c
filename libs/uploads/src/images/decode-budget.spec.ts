import { DecodeBudget } from './decode-budget';

/** A decode that ends when the test says so. */
function held(): { work: () => Promise<void>; finish: () => void; started: boolean } {
  const decode = { started: false, finish: () => undefined as void };
  const done = new Promise<void>((resolve) => (decode.finish = resolve));
  return Object.assign(decode, {
    work: () => {
      decode.started = true;
      return done;
    },
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('DecodeBudget', () => {
  it('runs decodes by their pixels, at most two at once, and starts the waiting ones strictly in arrival order', async () => {
    const budget = new DecodeBudget(2, 40);
    const [large, secondLarge, small, third] = [held(), held(), held(), held()];
    const all = [budget.run(36, large.work), budget.run(36, secondLarge.work), budget.run(1, small.work), budget.run(2, third.work)];
    await tick();
    // The second large one does not fit beside the first; the small one, though it would fit, waits behind it.
    expect([large.started, secondLarge.started, small.started, third.started]).toEqual([true, false, false, false]);
    expect(budget.load).toEqual({ decoding: 1, waiting: 3, pixels: 36 });

    large.finish();
    await tick();
    // The second large one starts, and the small one beside it (36 + 1 within 40, two at once); the last waits.
    expect([secondLarge.started, small.started, third.started]).toEqual([true, true, false]);
    expect(budget.load).toEqual({ decoding: 2, waiting: 1, pixels: 37 });

    small.finish();
    await tick();
    // 36 + 2 fits and a place is free: none is refused, each runs in its turn.
    expect(third.started).toBe(true);
    secondLarge.finish();
    third.finish();
    await Promise.all(all);
    expect(budget.load).toEqual({ decoding: 0, waiting: 0, pixels: 0 });
  });

  it('counts a decode larger than the whole budget as the whole budget: it runs alone, never refused', async () => {
    const budget = new DecodeBudget(2, 40);
    const huge = held();
    const other = held();
    const both = [budget.run(1_000, huge.work), budget.run(1, other.work)];
    await tick();
    expect([huge.started, other.started]).toEqual([true, false]);
    expect(budget.load.pixels).toBe(40);
    huge.finish();
    await tick();
    expect(other.started).toBe(true);
    other.finish();
    await Promise.all(both);
  });
});
