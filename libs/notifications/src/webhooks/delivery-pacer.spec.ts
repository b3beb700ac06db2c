import { DeliveryPacer } from './delivery-pacer';

describe('DeliveryPacer', () => {
  const gauge = {
    value: 0,
    share() {
      return this.value;
    },
    start: jest.fn(),
    close: jest.fn(),
  };
  beforeEach(() => {
    jest.useFakeTimers();
    gauge.value = 0;
  });
  afterEach(() => jest.useRealTimers());

  /** How many of the turns were given after `ms` more of (fake) time. */
  const given = (turns: Promise<unknown>[]) => {
    let n = 0;
    for (const turn of turns) void turn.then(() => (n += 1));
    return async (ms: number) => {
      await jest.advanceTimersByTimeAsync(ms);
      return n;
    };
  };
  const turns = (pacer: DeliveryPacer, n: number) => Array.from({ length: n }, () => pacer.turn());

  it('lets every attempt go at once while the CPU is free', async () => {
    const pacer = new DeliveryPacer(gauge, { threshold: 0.2, ratePerSecond: 10 });
    expect(await given(turns(pacer, 500))(0)).toBe(500);
  });

  it('under pressure, lets a second’s worth go at once, then the rate, in order', async () => {
    const pacer = new DeliveryPacer(gauge, { threshold: 0.2, ratePerSecond: 10 });
    gauge.value = 0.5;
    expect(pacer.givingWay()).toBe(true);
    const order: number[] = [];
    const waiting = turns(pacer, 30).map((turn, i) => turn.then(() => order.push(i)));
    const after = given(waiting);
    expect(await after(0)).toBe(10);
    expect(await after(1_000)).toBe(20);
    expect(await after(500)).toBe(25);
    expect(await after(500)).toBe(30);
    expect(order).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('the waiting attempts go as soon as the pressure falls, and the bucket is full again', async () => {
    const pacer = new DeliveryPacer(gauge, { threshold: 0.2, ratePerSecond: 10 });
    gauge.value = 0.9;
    const after = given(turns(pacer, 100));
    expect(await after(500)).toBe(15);
    gauge.value = 0.1;
    expect(await after(100)).toBe(100);
    gauge.value = 0.9; // short again: a second's worth at once, no debt from before
    expect(await given(turns(pacer, 12))(0)).toBe(10);
  });

  it('threshold 0 never gives way, nor reads the pressure', async () => {
    const pacer = new DeliveryPacer(gauge, { threshold: 0, ratePerSecond: 1 });
    gauge.value = 1;
    pacer.start();
    expect(gauge.start).not.toHaveBeenCalled();
    expect(pacer.givingWay()).toBe(false);
    expect(await given(turns(pacer, 50))(0)).toBe(50);
  });

  it('closing lets the waiting attempts go', async () => {
    const pacer = new DeliveryPacer(gauge, { threshold: 0.2, ratePerSecond: 1 });
    gauge.value = 0.9;
    const after = given(turns(pacer, 5));
    expect(await after(0)).toBe(1);
    pacer.close();
    expect(await after(0)).toBe(5);
    expect(gauge.close).toHaveBeenCalled();
  });
});
