// The keyed hash that names a phone number in everything the relay stores (HMAC-SHA256 with
// HASH_SECRET, hex): held calls, consent records, the never-call list, a lead's call-back number.
// A stored record never needs the number itself to be found again, and a leaked store names none.
import { createHmac, type KeyObject } from 'node:crypto';

export const numberHmac = (hashSecret: string | KeyObject, e164: string): string => createHmac('sha256', hashSecret).update(e164).digest('hex');
