/** The Gateway panel's requests (docs/gateway.md): the same for the desktop app and `serve`. */
import type { Runtime } from '../runtime/runtime';
import { GatewayService } from '../runtime/gateway/gateway-service';
import { HandlerError } from './handler-error';
import type { Handlers } from './contract';

/** one gateway per runtime, whichever host asks first */
const services = new WeakMap<Runtime, GatewayService>();

export function gatewayOf(runtime: Runtime): GatewayService {
  let service = services.get(runtime);
  if (!service) {
    service = new GatewayService(runtime);
    services.set(runtime, service);
    runtime.onDispose?.(() => service!.dispose());
  }
  return service;
}

export function createGatewayHandlers(
  runtime: Runtime,
): Pick<Handlers, 'gateway:status' | 'gateway:set'> {
  return {
    'gateway:status': async () => gatewayOf(runtime).status(),
    'gateway:set': async (input) => {
      try {
        return await gatewayOf(runtime).set(input);
      } catch (error) {
        // a missing profile, a port in use: the user's to fix
        throw new HandlerError('invalid_input', (error as Error).message);
      }
    },
  };
}
