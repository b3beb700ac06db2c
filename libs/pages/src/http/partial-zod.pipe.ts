import { PipeTransform } from '@nestjs/common';
import type { ZodType, z } from 'zod';
import { ZodPipe } from '@plink/http';

/**
 * Validates a partial update with a shared schema and keeps only the fields the request sent: zod fills
 * in the defaults of absent fields even inside `.partial()`, and an update must never reset what it did
 * not mention.
 */
export class PartialZodPipe<S extends ZodType> implements PipeTransform<unknown, Partial<z.infer<S>>> {
  private readonly pipe: ZodPipe<S>;

  constructor(schema: S) {
    this.pipe = new ZodPipe(schema);
  }

  transform(value: unknown): Partial<z.infer<S>> {
    const parsed = this.pipe.transform(value) as Record<string, unknown>;
    const sent = value as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter(([key]) => Object.prototype.hasOwnProperty.call(sent, key))) as Partial<
      z.infer<S>
    >;
  }
}
