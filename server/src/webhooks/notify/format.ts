// Formatting shared by the messages: times in the project's zone, HTML escaping, visitor values as
// one line, the owner link.
import { oneLine } from '../../visitor-text/one-line.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `25 Nov 2026, 18:05 (Europe/Kyiv)`, in the catalog's locale; the zone is named so nobody has to guess. */
export function formatTime(ms: number, locale: string, timeZone: string): string {
  const key = `${locale}\0${timeZone}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' })));
  return `${f.format(ms)} (${timeZone})`;
}

// Telegram's HTML mode knows these four named entities and any numeric one.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and double-quoted attributes (email HTML, Telegram's HTML mode). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * A visitor-supplied value as a message shows it: one clean line (visitor-text/one-line.ts; a store
 * may hold values kept before they were cleaned, so every message cleans again), cut to a length any
 * channel takes (Telegram: 4096 characters a message).
 */
export function clip(value: string, max = 300): string {
  const line = oneLine(value, max + 1);
  return line.length > max ? `${oneLine(line, max - 1)}…` : line;
}

/** The owner view, opened at one lead. */
export function ownerLink(publicUrl: string, callbackId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/owner#lead=${encodeURIComponent(callbackId)}`;
}

export const fill = (template: string, values: Record<string, string>): string => template.replace(/\{(\w+)\}/g, (m, name: string) => values[name] ?? m);
