// The project's SIP accounts: who is online, who is reserved by a call, who is speaking.
// /sipstatus/online and /sipstatus/speaking read straight from here.
import type { AgentControl, AgentInfo } from './types.ts';

interface AgentState {
  login: string;
  number: string;
  online: boolean;
  initiallyOnline: boolean;
  /** uniqueid of the call that reserved the agent (ringing or talking), null when free. */
  reservedBy: string | null;
  speaking: boolean;
}

export interface AgentPool extends AgentControl {
  online(): string[];
  speaking(): string[];
  byLogin(login: string): AgentState | undefined;
  byNumber(number: string): AgentState | undefined;
  /** Next free online agent in turn (round robin), reserved for `callId`; null when none is free. */
  reserveNext(callId: string): string | null;
  /** Reserves this agent if online and free. */
  reserve(login: string, callId: string): boolean;
  setSpeaking(login: string, speaking: boolean): void;
  release(login: string, callId: string): void;
  /** Back to the initial online states, nobody busy. */
  restore(): void;
}

export function createAgentPool(agents: ReadonlyArray<{ login: string; number?: string; online?: boolean }>): AgentPool {
  const seen = new Set<string>();
  const states: AgentState[] = agents.map((a) => {
    if (seen.has(a.login)) throw new Error(`simulator: duplicate agent login ${a.login}`);
    seen.add(a.login);
    const online = a.online ?? true;
    return { login: a.login, number: a.number ?? '', online, initiallyOnline: online, reservedBy: null, speaking: false };
  });
  let turn = 0;

  const find = (login: string) => states.find((s) => s.login === login);
  const isFree = (s: AgentState) => s.online && s.reservedBy === null;

  return {
    setOnline(login, online) {
      const s = find(login);
      if (!s) throw new Error(`simulator: no agent with login ${login}`);
      // Going offline does not drop a call already connected: SIP registration and media are separate.
      s.online = online;
    },
    list(): AgentInfo[] {
      return states.map((s) => ({
        login: s.login,
        number: s.number,
        online: s.online,
        speaking: s.speaking,
        busy: s.reservedBy !== null,
      }));
    },
    online: () => states.filter((s) => s.online).map((s) => s.login),
    speaking: () => states.filter((s) => s.speaking).map((s) => s.login),
    byLogin: find,
    byNumber: (number) => (number ? states.find((s) => s.number === number) : undefined),
    reserveNext(callId) {
      for (let i = 0; i < states.length; i++) {
        const index = (turn + i) % states.length;
        const s = states[index];
        if (s && isFree(s)) {
          turn = index + 1;
          s.reservedBy = callId;
          return s.login;
        }
      }
      return null;
    },
    reserve(login, callId) {
      const s = find(login);
      if (!s || !isFree(s)) return false;
      s.reservedBy = callId;
      return true;
    },
    setSpeaking(login, speaking) {
      const s = find(login);
      if (s) s.speaking = speaking;
    },
    release(login, callId) {
      const s = find(login);
      if (s && s.reservedBy === callId) {
        s.reservedBy = null;
        s.speaking = false;
      }
    },
    restore() {
      for (const s of states) {
        s.online = s.initiallyOnline;
        s.reservedBy = null;
        s.speaking = false;
      }
      turn = 0;
    },
  };
}
