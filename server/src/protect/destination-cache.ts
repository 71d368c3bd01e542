// Phone parsing with full metadata costs ~25 µs, the largest single cost of a refused request; a
// flood repeats the same few inputs. A small bounded cache of verdicts (the Destination, or the
// RelayError to throw again) keeps floods cheap. Keyed by the exact input, so nothing is shared
// between different numbers; bounded, so hostile variety only evicts.
import { RelayError } from '../errors.ts';
import { checkDestination, type Destination, type PhonePolicy } from './phone-policy.ts';
import { RecentCache } from './recent-cache.ts';

export function createDestinationCache(policy: PhonePolicy, size = 10_000) {
  const verdicts = new RecentCache<string, Destination | RelayError>(size);
  return (typed: string, country: string | undefined): Destination => {
    const key = `${country ?? ''}|${typed}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      try {
        verdict = checkDestination(typed, country, policy);
      } catch (err) {
        if (!(err instanceof RelayError)) throw err;
        verdict = err;
      }
      verdicts.set(key, verdict);
    }
    if (verdict instanceof RelayError) throw verdict;
    return verdict;
  };
}
