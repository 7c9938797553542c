// Finds free loopback TCP ports by binding 127.0.0.1:0 and releasing the socket.
import { createServer, type Server } from "node:net";

function listen(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/** Returns `count` distinct free ports (all held open together, then closed, so none repeats). */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listen());
    return servers.map((server) => {
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error("no TCP address");
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}
