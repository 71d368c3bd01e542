// The parameters of the extended callback for one visitor's call, from the relay's settings (the
// department's caller, project, direction) and what the visitor's request carried (number, address, user agent,
// attribution). One place, so a call placed now and a held call placed later send the same thing.
import type { CallbackExternalParams } from '../../calltracking/client.ts';
import type { Config } from '../../config/index.ts';
import type { Attribution } from '../../contract/contract.ts';
import { departmentOf } from '../../departments/department.ts';

export interface VisitorCall {
  /** The destination in international digits (380501234567), as the service takes it. */
  digits: string;
  clientIp: string;
  userAgent: string | null | undefined;
  attribution: Attribution;
  /** The department it is from: its caller and caller type ring first. */
  department: string | undefined;
}

/** The service keeps user agents short; so do we. */
export const USER_AGENT_MAX = 512;

export function callbackParams(config: Config, call: VisitorCall): CallbackExternalParams {
  const department = departmentOf(config.departments, call.department);
  return {
    caller: department.caller,
    caller_type: department.callerType,
    callee: call.digits,
    callee_type: 'default',
    direction: config.service.callback.direction,
    manager_dst: config.service.callback.managerDst,
    projectId: config.service.projectId,
    clientIp: call.clientIp,
    ...call.attribution,
    ...(call.userAgent && { clientUserAgent: call.userAgent.slice(0, USER_AGENT_MAX) }),
  };
}
