import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Open connections of the server; 0: no cap. */
  maxConnections: number;
  /** Open connections per peer address; 0: no cap. */
  maxConnectionsPerIp: number;
}

/**
 * Caps the connections `server` holds open, in all and per peer address: a connection past
 * either cap is closed as soon as it is accepted, before a byte of it is read.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  if (limits.maxConnectionsPerIp === 0) return;
  const open = new Map<string, number>();
  server.on('connection', function capConnectionsPerAddress(socket: Socket) {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerIp) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
