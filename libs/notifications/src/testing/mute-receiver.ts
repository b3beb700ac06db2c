import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A receiver that takes connections, reads what comes and never answers: the worst a creator's automation
 * tool (or a creator on purpose) can do to the webhooks of everyone sharing the notifications service.
 */
export class MuteReceiver {
  /** Requests it got (each a webhook attempt). */
  requests = 0;
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  static async start(): Promise<MuteReceiver> {
    const mute: MuteReceiver = new MuteReceiver(
      createServer((socket) => {
        mute.sockets.add(socket);
        socket.on('data', (chunk: Buffer) => (mute.requests += chunk.toString('latin1').split('POST /').length - 1));
        socket.on('close', () => mute.sockets.delete(socket));
        socket.on('error', () => undefined);
      }),
    );
    await new Promise<void>((resolve) => mute.server.listen(0, '127.0.0.1', resolve));
    return mute;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
