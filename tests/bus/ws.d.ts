// The part of `ws` (installed without @types/ws) that the engine harness uses.
declare module 'ws' {
  import type { IncomingMessage } from 'node:http';
  import { EventEmitter } from 'node:events';

  export class WebSocket extends EventEmitter {
    static readonly OPEN: number;
    readonly readyState: number;
    send(data: string, cb?: (err?: Error) => void): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
    on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): this;
    on(event: 'close', listener: (code: number, reason: Buffer) => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
  }

  export class WebSocketServer extends EventEmitter {
    constructor(options: { host?: string; port?: number });
    readonly clients: Set<WebSocket>;
    address(): { port: number } | string;
    close(cb?: (err?: Error) => void): void;
    on(event: 'connection', listener: (ws: WebSocket, req: IncomingMessage) => void): this;
    on(event: 'listening', listener: () => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
  }
}
