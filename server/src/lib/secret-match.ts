// Comparing a presented token with a configured secret (owner view, metrics, routing webhook). The
// SHA-256 digests of both are compared, so the comparison always runs over 32 bytes in constant
// time: response timing tells a guesser neither how much of a guess was right nor the secret's length.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** A test for one secret, its digest made once. */
export function secretMatcher(secret: string): (given: string) => boolean {
  const expected = digest(secret);
  return (given) => timingSafeEqual(digest(given), expected);
}
