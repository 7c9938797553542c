/**
 * Before the library fetches a Client ID Metadata Document: a client_id whose host is a private,
 * loopback or link-local address, or a local-only name, is refused with `invalid_client`, and
 * nothing is fetched or stored. A loopback document is the development switch's
 * (`cimd.allowLoopback`), which `loadLoopbackClient` fetches itself.
 */

import { clientIdOf, invalidClient, isLoopbackClientId } from "./loopback-cimd.ts";
import { isPrivateHost } from "./private-address.ts";

/** The refusal of a request naming a client on a private host, or undefined to let it through. */
export async function refusePrivateClient(
  request: Request,
  tokenPath: string,
  loopbackAllowed: boolean,
  authorizePath = "/authorize",
): Promise<Response | undefined> {
  const clientId = await clientIdOf(request, tokenPath, authorizePath);
  if (clientId === undefined || !/^https?:\/\//i.test(clientId)) return undefined;
  if (loopbackAllowed && isLoopbackClientId(clientId)) return undefined;
  let host: string;
  try {
    host = new URL(clientId).hostname;
  } catch {
    return undefined; // not a URL: the library refuses it as an unknown client
  }
  return isPrivateHost(host) ? invalidClient("the client metadata document's host is a private, loopback or link-local address") : undefined;
}
