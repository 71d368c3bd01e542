// What every endpoint handler may use: the project's identity, its clock, agents and call log.
import type { IncomingMessage } from 'node:http';
import type { AgentPool } from './agents';
import type { Lifecycle } from './lifecycle';
import type { ProjectTime } from './project-time';
import type { SimCall } from './types';

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
