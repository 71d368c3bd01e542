// A whole-number environment variable within bounds, for config.ts and protect/settings.ts: a bad
// value stops startup with the variable's name and the accepted range.
import { z } from 'zod';

export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `expected a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `expected a whole number from ${min} to ${max}`);
