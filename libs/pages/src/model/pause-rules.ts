/** What the pausing rules need to know of a page. */
export interface PausablePage {
  id: number;
  createdAt: Date;
  pausedAt?: Date | null;
}

/** The pages to pause and to un-pause (ids) so that an owner's pages follow the rules. */
export interface PauseDecision {
  pause: number[];
  unpause: number[];
}

const oldestFirst = (a: PausablePage, b: PausablePage) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id;

/**
 * The downgrade rule (a Free plan has one page). A Pro owner's pages are all live. A Free owner
 * keeps exactly one page live: the one already live if there is one (the oldest of those, after a
 * downgrade; the page they chose with keep-live afterwards), else the oldest page. Every other page is
 * paused. The decision depends only on the owner's plan now and the pages' state, so applying it again, or
 * after an older plan change arrives late, changes nothing.
 */
export function decidePausing(pages: PausablePage[], ownerIsPremium: boolean): PauseDecision {
  if (ownerIsPremium) return { pause: [], unpause: pages.filter((p) => p.pausedAt).map((p) => p.id) };
  const sorted = [...pages].sort(oldestFirst);
  const keep = sorted.find((p) => !p.pausedAt) ?? sorted[0];
  return {
    pause: sorted.filter((p) => p !== keep && !p.pausedAt).map((p) => p.id),
    unpause: keep?.pausedAt ? [keep.id] : [],
  };
}

/**
 * A Free owner chooses the page that stays live: it is un-paused and every other live page is paused.
 * A Pro owner has nothing to choose: every page is live ({@link decidePausing}).
 */
export function decideKeepLive(pages: PausablePage[], chosenId: number, ownerIsPremium: boolean): PauseDecision {
  if (ownerIsPremium) return decidePausing(pages, true);
  return {
    pause: pages.filter((p) => p.id !== chosenId && !p.pausedAt).map((p) => p.id),
    unpause: pages.filter((p) => p.id === chosenId && p.pausedAt).map((p) => p.id),
  };
}
