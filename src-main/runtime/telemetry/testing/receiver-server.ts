/** For tests: the workbench's OTLP receiver on a loopback HTTP server of its own. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunHistory } from '../../runs/run-history';
import { createOtlpReceiver, type OtlpReceiver, type OtlpReceiverOptions } from '../otlp-receiver';

export async function startReceiverServer(
  history: RunHistory,
  token?: string,
  options: Omit<OtlpReceiverOptions, 'history' | 'isToken'> = {},
): Promise<{ url: string; receiver: OtlpReceiver; close(): Promise<void> }> {
  const receiver = createOtlpReceiver({
    ...options,
    history,
    ...(token ? { isToken: (given: string) => given === token } : {}),
  });
  const server: Server = createServer((req, res) => {
    if (!receiver.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    receiver,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
