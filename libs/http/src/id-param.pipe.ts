import { NotFoundException, PipeTransform } from '@nestjs/common';

/** The largest PostgreSQL `integer` (int4): ids are int4 columns, so a larger one names no row. */
const MAX_ID = 2_147_483_647;

/**
 * `:id` of a row: a positive integer written plainly (no sign, leading zero or exponent) within int4, or that
 * row simply does not exist: 404 with the route's own not-found message, never a 400, nor a 500 from
 * PostgreSQL refusing an out-of-range integer.
 */
export class IdParamPipe implements PipeTransform<string, number> {
  constructor(private readonly notFoundMessage: string) {}

  transform(value: string): number {
    const id = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_ID)) throw new NotFoundException({ message: this.notFoundMessage });
    return id;
  }
}
