// The visitor-text rule (one-line.ts) as zod schemas, so a request schema states it once per field
// and a value is clean before any code sees it. The length limit is checked on the value as sent
// (the contract the widget keeps: it never sends a longer one); what the rule leaves is at most as long.
import { z } from 'zod';
import { oneLine } from './one-line.ts';

/** A string of at most `max` characters as sent, kept as one clean line ('' when nothing visible is left). */
export const visitorText = (max: number) =>
  z
    .string()
    .max(max)
    .transform((value) => oneLine(value, max));

/** The same, undefined when nothing visible is left: an optional value made only of blanks and controls counts as not sent. */
export const optionalVisitorText = (max: number) =>
  z
    .string()
    .max(max)
    .transform((value) => oneLine(value, max) || undefined);
