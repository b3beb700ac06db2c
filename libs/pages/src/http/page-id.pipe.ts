import { NotFoundException, PipeTransform } from '@nestjs/common';
import { PageMessages } from '@plink/contracts';

const MAX_ID = 2_147_483_647;

/** `:id` of a page: a positive integer, or the page simply does not exist (404, never a 400 or a 500). */
export class PageIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_ID)) throw new NotFoundException({ message: PageMessages.pageNotFound });
    return id;
  }
}
