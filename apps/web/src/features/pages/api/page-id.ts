/** The numeric id of a `/editor/:id` or `/stats/:id` route, or null when it cannot be a page's. */
export function parsePageId(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d{0,15}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}
