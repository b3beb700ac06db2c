import { decideKeepLive, decidePausing, type PausablePage } from './pause-rules';

const day = (n: number) => new Date(Date.UTC(2026, 10, n));
const paused = day(20);

describe('decidePausing (what a plan change does to an owner’s pages)', () => {
  const pages: PausablePage[] = [
    { id: 7, createdAt: day(3) },
    { id: 3, createdAt: day(1) }, // the oldest
    { id: 9, createdAt: day(5) },
  ];

  it('keeps the oldest page of a downgraded owner live and pauses the others', () => {
    expect(decidePausing(pages, false)).toEqual({ pause: [7, 9], unpause: [] });
  });

  it('changes nothing when applied again (a duplicate job)', () => {
    const after = pages.map((p) => (p.id === 3 ? p : { ...p, pausedAt: paused }));
    expect(decidePausing(after, false)).toEqual({ pause: [], unpause: [] });
  });

  it('keeps the page the owner chose live, even though it is not the oldest', () => {
    const chosen = pages.map((p) => (p.id === 9 ? p : { ...p, pausedAt: paused }));
    expect(decidePausing(chosen, false)).toEqual({ pause: [], unpause: [] });
  });

  it('brings the oldest page back when none is live (the live one was deleted)', () => {
    const allPaused = pages.map((p) => ({ ...p, pausedAt: paused }));
    expect(decidePausing(allPaused, false)).toEqual({ pause: [], unpause: [3] });
  });

  it('un-pauses every page of a Pro owner', () => {
    const after = pages.map((p) => (p.id === 3 ? p : { ...p, pausedAt: paused }));
    expect(decidePausing(after, true)).toEqual({ pause: [], unpause: [7, 9] });
    expect(decidePausing(pages, true)).toEqual({ pause: [], unpause: [] });
  });

  it('pauses nothing for a single page or none', () => {
    expect(decidePausing([{ id: 1, createdAt: day(1) }], false)).toEqual({ pause: [], unpause: [] });
    expect(decidePausing([], false)).toEqual({ pause: [], unpause: [] });
  });

  it('breaks a tie of creation times by id', () => {
    expect(decidePausing([{ id: 5, createdAt: day(1) }, { id: 4, createdAt: day(1) }], false)).toEqual({ pause: [5], unpause: [] });
  });
});

describe('decideKeepLive (a Free owner chooses the live page)', () => {
  const pages: PausablePage[] = [
    { id: 1, createdAt: day(1) },
    { id: 2, createdAt: day(2), pausedAt: paused },
    { id: 3, createdAt: day(3), pausedAt: paused },
  ];

  it('un-pauses the chosen page and pauses the one live before', () => {
    expect(decideKeepLive(pages, 3, false)).toEqual({ pause: [1], unpause: [3] });
  });

  it('changes nothing when the chosen page is already the live one', () => {
    expect(decideKeepLive(pages, 1, false)).toEqual({ pause: [], unpause: [] });
  });

  it('un-pauses everything for a Pro owner (nothing to choose)', () => {
    expect(decideKeepLive(pages, 3, true)).toEqual({ pause: [], unpause: [2, 3] });
  });
});
