// One masking style on the owner view: the held calls' (`+380 50 *** **67`, the country code and
// the first two and last two digits, grouped as the number is written). The call log gives numbers
// as bare digits; those are written the same way before masking. A number that is not a valid
// international one (a short internal line, a national number) keeps the log's own mask.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { maskPhone } from '../log/index.ts';
import { maskInternational } from '../phone/phone-policy.ts';

export function maskForOwner(serviceNumber: string): string {
  const digits = serviceNumber.replace(/\D/g, '');
  const parsed = digits.length >= 11 && !digits.startsWith('0') ? parsePhoneNumberFromString(`+${digits}`) : undefined;
  return parsed?.isValid() ? maskInternational(parsed.formatInternational()) : maskPhone(serviceNumber);
}
