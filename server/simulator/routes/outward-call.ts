// POST /callback/outward_call: the simple callback.
// Body form-encoded or JSON {extension, destination}. `extension` must be a number connected to the
// project (the office line or an agent's number); `destination` an international number or a SIP login.
// The extension's side rings first: an agent's own number rings that agent, the office line rings the
// next free online agent. Errors: 400 {"error":{"code","message"}}.
import { outwardCallSuccess } from '../assumptions.ts';
import { newCall } from '../call-log.ts';
import { isOutboundBanned, numberOrAgentLogin, type SimContext, type SimRequest } from '../context.ts';
import { json, methodNotAllowed, parseFormOrJson, restError, type Reply } from '../http-kit.ts';
import { internationalNumber } from '../numbers.ts';

export function outwardCall(ctx: SimContext, request: SimRequest): Reply {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const params = parseFormOrJson(request.raw, request.body);
  if (!params) return restError(400, 'body must be form-encoded or a JSON object');

  const extensionRaw = params.extension;
  const destinationRaw = params.destination;
  if (typeof extensionRaw !== 'string' || extensionRaw.trim() === '') return restError(400, 'extension is required');
  if (typeof destinationRaw !== 'string' || destinationRaw.trim() === '') return restError(400, 'destination is required');

  const extension = internationalNumber(extensionRaw);
  if (!extension) return restError(400, 'extension must be a phone number in international format');
  const agent = ctx.agents.byNumber(extension);
  if (extension !== ctx.officeLine && !agent) return restError(400, 'extension is not a number connected to the project');

  const destination = numberOrAgentLogin(ctx, destinationRaw.trim());
  if (!destination) return restError(400, 'destination must be a phone number in international format or a SIP account of the project');
  if (isOutboundBanned(ctx, destination)) return restError(400, 'outbound calls to this destination are not allowed');

  const call = newCall({ origin: 'outward_call', callType: 'callback', calldate: ctx.now(), caller: destination, dst: extension, visitor: destination });
  ctx.calls.push(call);
  ctx.lifecycle.agentFirst(call, agent?.login);
  ctx.log({ msg: 'outward call accepted', uniqueid: call.uniqueid });
  return json(200, outwardCallSuccess(call.uniqueid));
}
