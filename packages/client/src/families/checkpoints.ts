import type { Core } from '../core.js';
import type { CheckpointServer, PrivateCheckpointHealth } from '../types.js';

export interface CheckpointsApi {
  /** Checkpoint server information, including private-location servers. */
  server(serverId: number | string): Promise<CheckpointServer>;
  /** Health of private checkpoints (each with `Warnings`). A single object is returned as a one-item list. */
  privateHealth(): Promise<PrivateCheckpointHealth[]>;
}

/** IPv6 addresses used to be `{IpAddress}` objects; they are plain strings now. */
function normaliseServer(server: CheckpointServer): CheckpointServer {
  const v6: unknown = server.IpV6Addresses;
  if (!Array.isArray(v6)) return server;
  const addresses = v6.map((a: unknown) =>
    a !== null && typeof a === 'object' && typeof (a as { IpAddress?: unknown }).IpAddress === 'string' ? (a as { IpAddress: string }).IpAddress : a,
  );
  return { ...server, IpV6Addresses: addresses as string[] };
}

export function checkpointsApi(core: Core): CheckpointsApi {
  return {
    server: async (serverId) =>
      normaliseServer(await core.json<CheckpointServer>({ method: 'GET', route: '/Checkpoint/Server/{serverId}', params: { serverId } })),
    privateHealth: async () =>
      (await core.page<PrivateCheckpointHealth>({ method: 'GET', route: '/PrivateCheckpointHealth' }, { acceptSingleObject: true })).items,
  };
}
