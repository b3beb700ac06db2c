import { Injectable } from '@nestjs/common';

/**
 * The time the Trash goes by (when a page was deleted, when its 14 days are over): the system's. A test
 * moves it (`jest.spyOn(clock, 'now')`) instead of waiting two weeks.
 */
@Injectable()
export class TrashClock {
  now(): Date {
    return new Date();
  }
}
