// Standard Webhooks signing checked by the reference implementation (standardwebhooks' Webhook),
// the settings' rules (https only but loopback, a malformed secret named at startup), and the events'
// stable ids and payload.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { parseWebhookSecret, signWebhook } from '../../../server/src/webhooks/signing.ts';
import { envReader } from '../../../server/src/config/env.ts';
import { readLeadWebhook } from '../../../server/src/config/webhooks.ts';
import { buildLeadEvent, leadEventId } from '../../../server/src/webhooks/events.ts';

const secret = `whsec_${randomBytes(32).toString('base64')}`;

/** The first problem the configuration would report for these variables, as "NAME: why". */
function firstProblem(vars: Record<string, string>): string | null {
  try {
    readLeadWebhook(envReader(vars));
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('webhook signing', () => {
  it('signs as Standard Webhooks specifies: the reference verifier accepts it, and rejects a changed body', () => {
    const body = JSON.stringify({ type: 'callback.placed', data: { phone: '+380501234567' } });
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook(parseWebhookSecret(secret), 'msg_1', now, body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('380', '381'), { ...headers })).toThrow(/No matching signature/);
    // The same signature as the package's own signer.
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', new Date(now * 1000), body));
  });

  it('accepts only whsec_ + base64 of 24 to 64 bytes', () => {
    expect(parseWebhookSecret(secret)).toHaveLength(32);
    expect(() => parseWebhookSecret(randomBytes(32).toString('base64'))).toThrow(/whsec_/);
    expect(() => parseWebhookSecret('whsec_not base64!')).toThrow(/base64/);
    expect(() => parseWebhookSecret(`whsec_${randomBytes(8).toString('base64')}`)).toThrow(/24 to 64 bytes after whsec_, got 8/);
  });
});

describe('webhook settings', () => {
  it('is off with neither variable, and needs both', () => {
    expect(readLeadWebhook(envReader({}))).toBeNull();
    expect(firstProblem({ LEAD_WEBHOOK_URL: 'https://crm.example/hooks' })).toMatch(/^LEAD_WEBHOOK_SECRET: required when LEAD_WEBHOOK_URL is set/);
    expect(firstProblem({ LEAD_WEBHOOK_SECRET: secret })).toMatch(/^LEAD_WEBHOOK_URL: required when LEAD_WEBHOOK_SECRET is set/);
    expect(firstProblem({ LEAD_WEBHOOK_URL: 'https://crm.example/hooks', LEAD_WEBHOOK_SECRET: secret })).toBeNull();
  });

  it('takes https, and http only to this machine', () => {
    for (const ok of ['https://crm.example/hooks', 'http://127.0.0.1:9000/h', 'http://localhost/h', 'http://[::1]:8080/h']) {
      expect(firstProblem({ LEAD_WEBHOOK_URL: ok, LEAD_WEBHOOK_SECRET: secret })).toBeNull();
    }
    for (const bad of ['http://crm.example/hooks', 'ftp://crm.example/', 'https://user:pw@crm.example/', 'not a url', 'http://127.0.0.1.evil.example/']) {
      expect(firstProblem({ LEAD_WEBHOOK_URL: bad, LEAD_WEBHOOK_SECRET: secret })).toMatch(/^LEAD_WEBHOOK_URL: expected an https URL/);
    }
  });

  it('names a malformed secret and says what is expected', () => {
    expect(firstProblem({ LEAD_WEBHOOK_URL: 'https://crm.example/hooks', LEAD_WEBHOOK_SECRET: 'hunter2' })).toBe(
      'LEAD_WEBHOOK_SECRET: expected whsec_ followed by the base64 of 24 to 64 random bytes (e.g. whsec_$(openssl rand -base64 32))',
    );
  });
});

describe('lead events', () => {
  const input = {
    type: 'callback.scheduled' as const,
    callbackId: 'cb-1',
    occurredAt: Date.UTC(2026, 0, 5, 9, 0, 0),
    e164: '+380501234567',
    maskedNumber: '+380 50 *** **67',
    numberHash: 'ab'.repeat(32),
    attribution: { utmSource: 'google', utmCampaign: 'spring', clientId: '123.456' },
    pageUrl: 'https://shop.example/p',
    origin: 'https://shop.example',
    locale: 'uk',
    requestedAt: Date.UTC(2026, 0, 5, 8, 59, 0),
    scheduledFor: Date.UTC(2026, 0, 6, 10, 0, 0),
  };

  it('carries the full and masked number, attribution, page and times, under a stable id', () => {
    const event = buildLeadEvent(input);
    expect(JSON.parse(event.body)).toEqual({
      type: 'callback.scheduled',
      timestamp: '2026-01-05T09:00:00.000Z',
      data: {
        callbackId: 'cb-1',
        phone: '+380501234567',
        phoneMasked: '+380 50 *** **67',
        attribution: input.attribution,
        // A lead from a widget before consent handling was told none.
        consent: null,
        pageUrl: 'https://shop.example/p',
        origin: 'https://shop.example',
        locale: 'uk',
        requestedAt: '2026-01-05T08:59:00.000Z',
        scheduledFor: '2026-01-06T10:00:00.000Z',
        occurredAt: '2026-01-05T09:00:00.000Z',
        reason: null,
      },
    });
    // The visitor's consent as the widget told it; a stored one that is not one of the schema's, none.
    const consent = { analytics: 'denied', ads: 'granted', source: 'onetrust', cookiesRead: false } as const;
    expect(JSON.parse(buildLeadEvent({ ...input, trackingConsent: consent }).body).data.consent).toEqual(consent);
    expect(JSON.parse(buildLeadEvent({ ...input, trackingConsent: { ...consent, source: '<script>' } as never }).body).data.consent).toBeNull();
    // Built again (a producer repeating its step): the same id. Another type or occurrence: another id.
    expect(buildLeadEvent({ ...input, occurredAt: input.occurredAt + 1 }).id).toBe(event.id);
    expect(event.id).toMatch(/^msg_[\w-]{32}$/);
    expect(new Set([event.id, leadEventId('cb-1', 'callback.missed'), leadEventId('cb-1', 'callback.missed', 1), leadEventId('cb-2', 'callback.scheduled')]).size).toBe(4);
  });
});
