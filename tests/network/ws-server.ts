/** A minimal WebSocket server for tests: completes the handshake, sends "hello", counts connections. */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface WsServer {
  /** ws://127.0.0.1:PORT/ */
  url: string;
  /** Handshakes that reached the server. */
  connections: number;
  close(): Promise<void>;
}

export async function startWsServer(): Promise<WsServer> {
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server = createServer((_req, res) => res.writeHead(426).end());
  server.on('upgrade', (req, socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    state.connections += 1;
    const accept = createHash('sha1')
      .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    const text = Buffer.from('hello');
    socket.write(Buffer.concat([Buffer.from([0x81, text.length]), text]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/`,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
