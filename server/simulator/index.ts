// The call-tracking service simulator: an in-memory stand-in for the Ringostat API written from
// the service's documented interface (docs/service-interface.md), never from the relay's client, so
// it can catch drift. Re-exports only.
export { createSimulator, startSimulator } from './simulator.ts';
export { DEFAULTS as SIMULATOR_DEFAULTS, MAX_EXPORT_ROWS } from './assumptions.ts';
export { EXPORT_FIELDS } from './call-log.ts';
export type {
  AgentControl,
  AgentInfo,
  CallOrigin,
  CallState,
  CallTiming,
  CallType,
  Disposition,
  Fault,
  FaultSwitches,
  FaultTarget,
  InboundCallResult,
  RecordedRequest,
  RouteMethod,
  RouteReason,
  RoutingControl,
  RoutingScheme,
  SeedOptions,
  SimCall,
  Simulator,
  SimulatorOptions,
} from './types.ts';
