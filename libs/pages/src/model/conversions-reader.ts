/**
 * Where the pages service reads each page's conversion count (the leads service owns it). Pages must not
 * import the leads service (leads reads pages), so this port is defined here and the leads service
 * provides it: `{ provide: ConversionsReader, useExisting: LeadsDirectory }` in its read module.
 */
export abstract class ConversionsReader {
  /** Conversions per page id; pages without any may be missing from the map. */
  abstract conversionsFor(pageIds: number[]): Promise<Map<number, number>>;

  /** Sign-ups per page id waiting for their e-mail confirmation (double opt-in); none unless the reader knows of them. */
  async pendingFor(_pageIds: number[]): Promise<Map<number, number>> {
    return new Map();
  }

  /** Conversions per page id that came without a counted view (the API, the plain HTML form); none unless the reader knows of them. */
  async withoutVisitFor(_pageIds: number[]): Promise<Map<number, number>> {
    return new Map();
  }
}
