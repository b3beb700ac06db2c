import { EndpointGate, type Deferral, type EndpointRef, type GateLimits, type ParkNotice, type Slot } from './endpoint-gate';

const limits: GateLimits = {
  concurrency: 6,
  perOwner: 3,
  perEndpoint: 2,
  stallMs: 500,
  timeoutsBeforePark: 3,
  parkMs: 60_000,
  maxParkMs: 180_000,
  responseTimeoutMs: 10_000,
};

const hanging = { pageId: 1, ownerId: 10, host: 'hang.example:443' };
const sameOwner = { pageId: 2, ownerId: 10, host: 'other.example' };
const thirdPage = { pageId: 3, ownerId: 10, host: 'third.example' };
const someoneElse = { pageId: 4, ownerId: 20, host: 'fine.example' };

const isSlot = (x: Slot | Deferral): x is Slot => 'release' in x;
const timedOut = { timedOut: true, answered: false };
const answered = { timedOut: false, answered: true };
/** Lets the promises settled by the gate run their callbacks. */
const settled = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('EndpointGate (who may send a webhook attempt now)', () => {
  let parks: ParkNotice[];
  let resumed: (number | undefined)[];
  let gate: EndpointGate;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-24T10:00:00Z') });
    parks = [];
    resumed = [];
    gate = new EndpointGate(limits, { parked: (n) => parks.push(n), resumed: (r) => resumed.push(r.pageId) }, { now: Date.now, random: () => 0 });
  });

  afterEach(() => {
    gate.close();
    jest.useRealTimers();
  });

  async function slot(ref: EndpointRef): Promise<Slot> {
    const got = await gate.acquire(ref);
    if (!isSlot(got)) throw new Error(`deferred: ${JSON.stringify(got)}`);
    return got;
  }

  it('lets an endpoint have a few attempts under way; the next waits for one of them to end', async () => {
    const [a] = [await slot(hanging), await slot(hanging)];
    let third: Slot | Deferral | undefined;
    void gate.acquire(hanging).then((x) => (third = x));
    await settled();
    expect(third).toBeUndefined();
    a.release(answered);
    await settled();
    expect(third && isSlot(third)).toBe(true);
  });

  it("keeps an owner to its share of the process: another owner's attempt starts at once", async () => {
    await slot(hanging);
    await slot(hanging);
    await slot(sameOwner);
    let fourth: Slot | Deferral | undefined;
    void gate.acquire(thirdPage).then((x) => (fourth = x)); // the owner's share is used up
    await settled();
    expect(fourth).toBeUndefined();
    expect(isSlot(await gate.acquire(someoneElse))).toBe(true);
  });

  it('defers, without waiting, what waits on an endpoint that has stalled (nothing started or ended for a while)', async () => {
    await slot(hanging);
    await slot(hanging);
    let waiting: Slot | Deferral | undefined;
    void gate.acquire(hanging).then((x) => (waiting = x));
    jest.advanceTimersByTime(400);
    await settled();
    expect(waiting).toBeUndefined(); // still within the stall limit
    jest.advanceTimersByTime(200);
    await settled();
    expect(waiting).toEqual({ why: 'busy', deferMs: 1_000 });
    // Later ones are deferred at once, longer the longer it stalls, never past its attempts' timeout.
    jest.advanceTimersByTime(3_000);
    expect(await gate.acquire(hanging)).toEqual({ why: 'busy', deferMs: 3_600 });
    jest.advanceTimersByTime(20_000);
    expect(await gate.acquire(hanging)).toEqual({ why: 'busy', deferMs: 10_000 });
    // Another endpoint of the same owner is not held up.
    expect(isSlot(await gate.acquire(sameOwner))).toBe(true);
  });

  it('parks an endpoint whose attempts time out in a row, says until when, and tries it again after the park', async () => {
    const attempts = [await slot(hanging), await slot(hanging)];
    attempts[0].release(timedOut);
    attempts[1].release(timedOut);
    expect(parks).toEqual([]);
    const again = await slot(hanging);
    let waiting: Slot | Deferral | undefined;
    await slot(hanging);
    void gate.acquire(hanging).then((x) => (waiting = x));
    again.release(timedOut); // the third in a row
    await settled();
    expect(parks).toEqual([{ ...hanging, timeouts: 3, until: new Date(Date.now() + 60_000) }]);
    expect(gate.parkedUntil(hanging)).toEqual(new Date(Date.now() + 60_000));
    // The one waiting and the ones that come wait out the park, out of the process.
    expect(waiting).toEqual({ why: 'parked', deferMs: 60_000 });
    jest.advanceTimersByTime(10_000);
    expect(await gate.acquire(hanging)).toEqual({ why: 'parked', deferMs: 50_000 });
    expect(isSlot(await gate.acquire(someoneElse))).toBe(true);

    jest.advanceTimersByTime(50_001);
    expect(gate.parkedUntil(hanging)).toBeNull();
    const tried = [await slot(hanging)];
    for (let i = 0; i < 3; i++) {
      tried[0].release(timedOut);
      if (i < 2) tried[0] = await slot(hanging);
    }
    // Parked again without an answer between: twice as long.
    expect(parks[1]).toMatchObject({ until: new Date(Date.now() + 120_000) });
    jest.advanceTimersByTime(120_001);
    (await slot(hanging)).release(answered);
    expect(resumed).toEqual([hanging.pageId]);
    expect(gate.parkedUntil(hanging)).toBeNull();
  });

  it("keys a hook subscription's target apart from a page's webhook at the same host: parking one leaves the other", async () => {
    const hookAtSameHost: EndpointRef = { hookId: hanging.pageId, ownerId: 30, host: hanging.host };
    const otherHookThere: EndpointRef = { hookId: 99, ownerId: 30, host: hanging.host };
    for (let i = 0; i < 3; i++) (await slot(hookAtSameHost)).release(timedOut);
    expect(parks).toEqual([{ ...hookAtSameHost, timeouts: 3, until: new Date(Date.now() + 60_000) }]);
    expect(await gate.acquire(hookAtSameHost)).toEqual({ why: 'parked', deferMs: 60_000 });
    // The page whose id is the hook's, at the same host, and another hook there still send.
    expect(gate.parkedUntil(hanging)).toBeNull();
    expect(isSlot(await gate.acquire(hanging))).toBe(true);
    expect(isSlot(await gate.acquire(otherHookThere))).toBe(true);
  });

  it('an answer or another error between timeouts starts the count again', async () => {
    for (const outcome of [timedOut, timedOut, { timedOut: false, answered: false }, timedOut, timedOut, answered, timedOut]) {
      (await slot(hanging)).release(outcome);
    }
    expect(parks).toEqual([]);
  });

  it('asks the pacer for each attempt\'s turn before its slot, and a parked endpoint\'s attempt for none', async () => {
    let turns = 0;
    let release: () => void = () => undefined;
    const pacer = { turn: () => new Promise<void>((resolve) => ((turns += 1), (release = resolve))) };
    const paced = new EndpointGate(limits, { parked: () => undefined, resumed: () => undefined }, { pacer });
    try {
      let got: Slot | Deferral | undefined;
      void paced.acquire(someoneElse).then((x) => (got = x));
      await settled();
      expect(turns).toBe(1);
      expect(got).toBeUndefined(); // no slot before its turn
      release();
      await settled();
      expect(got && isSlot(got)).toBe(true);
      if (got && isSlot(got)) got.release(answered);

      for (let i = 0; i < 3; i++) {
        const attempt = paced.acquire(hanging);
        release();
        const slotOf = await attempt;
        if (isSlot(slotOf)) slotOf.release(timedOut);
      }
      expect(paced.parkedUntil(hanging)).not.toBeNull();
      const before = turns;
      expect(await paced.acquire(hanging)).toMatchObject({ why: 'parked' });
      expect(turns).toBe(before);
    } finally {
      paced.close();
    }
  });
});
