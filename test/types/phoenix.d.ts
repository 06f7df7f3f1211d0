// The parts of the `phoenix` JS client (which ships no types) and of `ws` the tests use.
declare module "phoenix" {
  export class Push {
    receive(status: string, callback: (response: any) => void): Push;
  }
  export class Channel {
    join(timeout?: number): Push;
    leave(timeout?: number): Push;
    on(event: string, callback: (payload: any) => void): number;
    push(event: string, payload: object, timeout?: number): Push;
  }
  export class Socket {
    constructor(endPoint: string, opts?: Record<string, unknown>);
    connect(): void;
    disconnect(callback?: () => void, code?: number, reason?: string): void;
    channel(topic: string, params?: object): Channel;
    isConnected(): boolean;
    onOpen(callback: () => void): string;
    onError(callback: (error: unknown) => void): string;
    onClose(callback: (event: unknown) => void): string;
  }
}
declare module "ws" {
  const WebSocket: any;
  export default WebSocket;
  export { WebSocket };
}
