// Calls live in time. This file moves a call-log row through its states with timers.
//
// Agent first (extended callback with manager_dst 1, and the simple /callback/outward_call):
//
//   accepted ─▶ agent_ringing ──(agentAnswerMs, agent picked up)──▶ visitor_ringing   [agent speaking]
//                    │                                                  │
//                    └─(agentAnswerMs, no free online agent)─▶ ended NO ANSWER
//   visitor_ringing ──(visitorRingMs, visitor answers)──▶ talking ──(talkMs)──▶ ended ANSWERED, billsec
//                   └─(visitorRingMs, visitor never answers)──▶ ended CLIENT NO ANSWER
//
// Visitor first (extended callback with manager_dst 0):
//
//   accepted ─▶ visitor_ringing ──(visitorRingMs, no answer)──▶ ended CLIENT NO ANSWER
//                    └─(visitorRingMs, answers)─▶ agent_ringing ──(agentAnswerMs, none free)─▶ ended NO ANSWER
//                                                     └─(agentAnswerMs, picked up)─▶ talking ─▶ ANSWERED
//
// Inbound call routed by the webhook (or by the fallback step) to an agent or a number:
//
//   accepted ─▶ agent_ringing ──(agentAnswerMs)──▶ talking ──(talkMs)──▶ ended ANSWERED
//        (to an agent that is offline or busy: ended NO ANSWER; to an outside number: it rings for
//         visitorRingMs and answers by visitorAnswers, else CLIENT NO ANSWER)
//
// An agent is reserved from the moment they are picked until the call ends, so two calls never get
// the same agent; they show in /sipstatus/speaking only from pick-up to hang-up. The row's
// disposition is `IN PROGRESS` until `ended`.
import { recordingUrl } from './call-log.ts';
import type { AgentPool } from './agents.ts';
import type { Timers } from './timers.ts';
import type { CallTiming, Disposition, SimCall } from './types.ts';

export interface LifecycleDeps {
  agents: AgentPool;
  timers: Timers;
  timing: CallTiming;
  visitorAnswers: (e164: string) => boolean;
  log: (line: object) => void;
}

export interface Lifecycle {
  /** Agent leg first. `agent`: a specific SIP login to ring; otherwise the next free online agent. */
  agentFirst(call: SimCall, agent?: string): void;
  visitorFirst(call: SimCall): void;
  /**
   * Inbound call connected to `destination`: an agent's SIP login, an outside number, or with
   * neither the office line's queue (the next free online agent, as agentFirst picks one).
   */
  connectInbound(call: SimCall, destination: { agent?: string } | { number: string }): void;
}

export function createLifecycle(deps: LifecycleDeps): Lifecycle {
  const { agents, timers, timing, log } = deps;

  /** visitorAnswers gets E.164 with its '+' (`+380501234567`); the call log keeps bare digits. */
  const numberAnswers = (digits: string) => deps.visitorAnswers(`+${digits}`);

  /** The external party answers? (agents by login answer when online; numbers per visitorAnswers) */
  function partyAnswers(party: string): boolean {
    const agent = agents.byLogin(party);
    if (agent) return agent.online;
    return numberAnswers(party);
  }

  function end(call: SimCall, disposition: Disposition, waitMs: number, talkMs: number): void {
    call.state = 'ended';
    call.disposition = disposition;
    call.waittime = Math.round(waitMs / 1000);
    call.billsec = Math.round(talkMs / 1000);
    call.duration = call.waittime + call.billsec;
    call.durationMs = Math.round(waitMs + talkMs);
    if (disposition === 'ANSWERED') {
      call.recording = recordingUrl(call.uniqueid);
      call.hasRecording = true;
    }
    if (call.agent) agents.release(call.agent, call.uniqueid);
    log({ msg: 'call ended', uniqueid: call.uniqueid, disposition, billsec: call.billsec });
  }

  function talk(call: SimCall, waitMs: number): void {
    call.state = 'talking';
    timers.after(timing.talkMs, () => end(call, 'ANSWERED', waitMs, timing.talkMs));
  }

  function pickUp(call: SimCall, agent: string): void {
    agents.setSpeaking(agent, true);
    call.connectedWith = agent;
  }

  /** Reserves `specific` or the next free online agent for the call: their login, or null when none. */
  function reserve(call: SimCall, specific?: string): string | null {
    const login = specific ? (agents.reserve(specific, call.uniqueid) ? specific : null) : agents.reserveNext(call.uniqueid);
    call.agent = login;
    return login;
  }

  return {
    agentFirst(call, specific) {
      call.state = 'agent_ringing';
      const agent = reserve(call, specific);
      timers.after(timing.agentAnswerMs, () => {
        if (!agent) return end(call, 'NO ANSWER', timing.agentAnswerMs, 0);
        pickUp(call, agent);
        call.state = 'visitor_ringing';
        timers.after(timing.visitorRingMs, () => {
          const waitMs = timing.agentAnswerMs + timing.visitorRingMs;
          if (!partyAnswers(call.visitor)) return end(call, 'CLIENT NO ANSWER', waitMs, 0);
          talk(call, waitMs);
        });
      });
    },
    visitorFirst(call) {
      call.state = 'visitor_ringing';
      timers.after(timing.visitorRingMs, () => {
        if (!partyAnswers(call.visitor)) return end(call, 'CLIENT NO ANSWER', timing.visitorRingMs, 0);
        call.state = 'agent_ringing';
        const agent = reserve(call);
        timers.after(timing.agentAnswerMs, () => {
          const waitMs = timing.visitorRingMs + timing.agentAnswerMs;
          if (!agent) return end(call, 'NO ANSWER', waitMs, 0);
          pickUp(call, agent);
          talk(call, waitMs);
        });
      });
    },
    connectInbound(call, destination) {
      if ('number' in destination) {
        call.state = 'visitor_ringing';
        call.connectedWith = destination.number;
        timers.after(timing.visitorRingMs, () => {
          if (!numberAnswers(destination.number)) return end(call, 'NO ANSWER', timing.visitorRingMs, 0);
          talk(call, timing.visitorRingMs);
        });
        return;
      }
      call.state = 'agent_ringing';
      const agent = reserve(call, destination.agent);
      call.connectedWith = destination.agent ?? agent ?? '';
      timers.after(timing.agentAnswerMs, () => {
        if (!agent) return end(call, 'NO ANSWER', timing.agentAnswerMs, 0);
        pickUp(call, agent);
        talk(call, timing.agentAnswerMs);
      });
    },
  };
}
