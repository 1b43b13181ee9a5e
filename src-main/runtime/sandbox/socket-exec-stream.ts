/**
 * One exec's hijacked connection to the engine: multiplexed stdout/stderr in (demuxed to
 * listeners as it arrives), stdin out; a broken connection is an EngineDisconnectedError.
 */
import type { Duplex } from 'node:stream';
import { Demuxer } from './demux';
import type { ExecStream } from './engine';
import { EngineDisconnectedError } from './errors';

/** The hijacked exec connection: multiplexed output in, stdin out. */
export class SocketExecStream implements ExecStream {
  readonly ended: Promise<void>;
  private readonly stdoutListeners: ((chunk: Buffer) => void)[] = [];
  private readonly stderrListeners: ((chunk: Buffer) => void)[] = [];
  private isDestroyed = false;

  constructor(
    readonly id: string,
    private readonly socket: Duplex,
    endpoint: string,
  ) {
    const demuxer = new Demuxer((stream, payload) => {
      const listeners = stream === 'stderr' ? this.stderrListeners : this.stdoutListeners;
      for (const listener of listeners) listener(payload);
    });
    this.ended = new Promise<void>((resolve, reject) => {
      let settled = false;
      const done = (error?: Error) => {
        if (settled) return;
        settled = true;
        if (error && !this.isDestroyed) {
          reject(
            new EngineDisconnectedError(
              `The connection to the Docker engine at ${endpoint} broke while the command ran ` +
                `(${error.message}). Check that Docker is still running (\`docker info\`).`,
              { cause: error },
            ),
          );
        } else {
          resolve();
        }
      };
      socket.on('data', (chunk: Buffer) => demuxer.push(chunk));
      socket.on('end', () => done());
      socket.on('close', () => done());
      socket.on('error', (error: Error) => done(error));
    });
    // Nobody may be awaiting yet; a rejection is observed through `ended` by the owner.
    this.ended.catch(() => undefined);
  }

  onStdout(listener: (chunk: Buffer) => void): void {
    this.stdoutListeners.push(listener);
  }

  onStderr(listener: (chunk: Buffer) => void): void {
    this.stderrListeners.push(listener);
  }

  write(data: Buffer | string): void {
    if (!this.isDestroyed && this.socket.writable) this.socket.write(data);
  }

  closeStdin(): void {
    if (!this.isDestroyed && this.socket.writable) this.socket.end();
  }

  destroy(): void {
    this.isDestroyed = true;
    this.socket.destroy();
  }
}
