// What every endpoint handler may use: the project's identity, its clock, agents and call log, and the
// party rules both callback endpoints share.
import type { IncomingMessage } from 'node:http';
import type { AgentPool } from './agents.ts';
import type { Lifecycle } from './lifecycle.ts';
import { internationalNumber } from './numbers.ts';
import type { ProjectTime } from './project-time.ts';
import type { SimCall } from './types.ts';

export interface SimContext {
  authKey: string;
  projectId: string;
  officeLine: string;
  time: ProjectTime;
  now: () => Date;
  log: (line: object) => void;
  agents: AgentPool;
  lifecycle: Lifecycle;
  calls: SimCall[];
  outboundBanPrefixes: readonly string[];
}

export interface SimRequest {
  method: string;
  url: URL;
  body: string;
  raw: IncomingMessage;
}

/** A party the callback endpoints accept: an agent's SIP login as given, else an international number's digits. */
export function numberOrAgentLogin(ctx: SimContext, raw: string): string | null {
  if (ctx.agents.byLogin(raw)) return raw;
  return internationalNumber(raw);
}

/** The project may not call this number (an outbound ban covers its prefix). */
export function isOutboundBanned(ctx: SimContext, number: string): boolean {
  return ctx.outboundBanPrefixes.some((prefix) => number.startsWith(prefix));
}
