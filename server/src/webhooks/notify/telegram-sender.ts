// The Telegram channel: each stored message sent with the Bot API's sendMessage (HTML mode, no
// link preview) to TELEGRAM_CHAT_ID. The bot token is part of the request's path, so neither the
// URL nor an error that could hold it is ever reported: a failed attempt is its status and
// Telegram's description. A 429 says when to come back (parameters.retry_after, seconds): the next
// attempt waits at least that long.
import type { TelegramSettings } from '../../config/notify.ts';
import type { SendResult } from '../outbox-delivery.ts';

export interface StoredTelegram {
  text: string;
}

interface BotAnswer {
  ok?: boolean;
  description?: string;
  parameters?: { retry_after?: number };
}

export function createTelegramSender(settings: TelegramSettings, fetchFn: typeof fetch = fetch) {
  const url = `${settings.apiUrl}/bot${settings.botToken}/sendMessage`;
  return async (body: string, signal: AbortSignal): Promise<SendResult> => {
    const { text } = JSON.parse(body) as StoredTelegram;
    let res: Response;
    try {
      res = await fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: settings.chatId, text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } }),
        redirect: 'error',
        signal,
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      return { ok: false, error: e.name === 'TimeoutError' ? 'timeout' : `${e.name}: ${e.cause?.code ?? 'request failed'}` };
    }
    const answer = (await res.json().catch(() => ({}))) as BotAnswer;
    if (res.ok && answer.ok === true) return { ok: true, status: res.status };
    const retryAfter = answer.parameters?.retry_after;
    const description = typeof answer.description === 'string' ? `: ${answer.description.slice(0, 200).split(settings.botToken).join('[secret]')}` : '';
    return {
      ok: false,
      status: res.status,
      error: `HTTP ${res.status}${description}`,
      ...(typeof retryAfter === 'number' && retryAfter > 0 && { retryAfterMs: Math.min(retryAfter, 86_400) * 1000 }),
    };
  };
}
