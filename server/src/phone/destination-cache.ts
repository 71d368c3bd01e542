// Phone parsing with full metadata costs ~25 µs, the largest single cost of a refused request; a
// flood repeats the same few inputs. A small bounded cache of verdicts (the Destination, or the
// RelayError to throw again) keeps floods cheap. Keyed by the exact input, so nothing is shared
// between different numbers; bounded, so hostile variety only evicts. The keys are numbers as
// visitors typed them: an erased number's entries are dropped (forgetNumber).
import { RelayError } from '../contract/errors.ts';
import { checkDestination, type Destination, type PhonePolicy } from './phone-policy.ts';
import { neverCallOf, type OwnLines } from './never-call.ts';
import { RecentCache } from '../lib/recent-cache.ts';

/** The configuration (or a plain policy): its own lines (never-call.ts) are added to the policy. */
export function createDestinationCache(settings: PhonePolicy & OwnLines, size = 10_000) {
  const policy: PhonePolicy = {
    defaultCountry: settings.defaultCountry,
    allowedCountries: settings.allowedCountries,
    neverCall: [...(settings.neverCall ?? []), ...neverCallOf(settings)],
  };
  const verdicts = new RecentCache<string, Destination | RelayError>(size);
  const destinationOf = (typed: string, country: string | undefined): Destination => {
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
  /** Drops the entries of an erased number: its verdicts, and any input typed as it (its last nine digits); answers how many. */
  const forgetNumber = (e164: string): number => {
    const tail = e164.slice(-9);
    return verdicts.deleteWhere((key, verdict) => (!(verdict instanceof RelayError) && verdict.e164 === e164) || key.replace(/\D/g, '').endsWith(tail));
  };
  return Object.assign(destinationOf, { forgetNumber });
}
