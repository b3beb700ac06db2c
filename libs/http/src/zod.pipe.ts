import { BadRequestException, PipeTransform } from '@nestjs/common';
import type { ZodType, z } from 'zod';
import { CommonMessages } from '@plink/contracts';

/**
 * Validates a request body with a shared contract schema. Answers 400 with the first message
 * (the text the user sees, where the schema carries one); the handler only ever sees valid data.
 */
export class ZodPipe<S extends ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new BadRequestException({ message: CommonMessages.invalidRequest });
    }
    const result = this.schema.safeParse(value);
    if (!result.success) {
      throw new BadRequestException({ message: result.error.issues[0]?.message ?? CommonMessages.invalidRequest });
    }
    return result.data;
  }
}
