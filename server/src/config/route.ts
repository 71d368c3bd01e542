// The service's routing webhook, `/hooks/route/<ROUTE_WEBHOOK_TOKEN>`: the service asks the relay
// where to send an incoming call. Without the token the route does not exist.
import type { EnvReader } from './env.ts';
import { URL_TOKEN } from './env-values.ts';

export interface RouteSettings {
  token: string | null;
  /** Where to send a call when no agent is free; null: the service's own routing. */
  fallback: string | null;
  /** The member of the answer the service reads the destination from. */
  destinationField: string;
  reply: 'json' | 'text';
  statusWaitMs: number;
}

export function readRoute(env: EnvReader): RouteSettings {
  return {
    token: env.text('ROUTE_WEBHOOK_TOKEN', URL_TOKEN) ?? null,
    fallback: env.text('ROUTE_FALLBACK', { pattern: /^[^\s/]{2,64}$/, expected: 'a phone number in international format or a SIP login' }) ?? null,
    destinationField:
      env.text('ROUTE_DESTINATION_FIELD', { pattern: /^[\w.-]{1,64}$/, expected: 'the member name entered as "Name in response for destination" (letters, digits, _ . -)' }) ??
      'destination',
    reply: env.oneOf('ROUTE_REPLY', ['json', 'text'] as const) ?? 'json',
    statusWaitMs: env.duration('ROUTE_STATUS_WAIT_MS', 50, 2500) ?? 1000,
  };
}
