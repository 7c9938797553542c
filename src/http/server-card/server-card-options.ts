/** What a tenant's Server Card says beyond its server's info (the endpoint option that turns the card on). */

import type { Icon } from "../../core/types.ts";

/** Every member optional: the server's info fills in the rest. */
export interface ServerCardOptions {
  /** Reverse-DNS name with one slash (`com.example/weather`); default `<reversed host>/<tenant>`. */
  name?: string;
  /** 1-100 characters; default the server's description, else one made from its title or name. */
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}
