import { Injectable } from '@nestjs/common';

/**
 * The time the double opt-in rules go by (the 10-minute re-send throttle, the 48-hour reminder, the 7-day
 * expiry): the system's. A test moves it (`jest.spyOn(clock, 'now')`) instead of waiting.
 */
@Injectable()
export class LeadClock {
  now(): Date {
    return new Date();
  }
}
