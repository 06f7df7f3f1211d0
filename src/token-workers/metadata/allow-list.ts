/**
 * `METADATA_ALLOWED_HOSTS`: comma-separated `host` or `host:port` entries (IPv6 as `[::1]` or `[::1]:8080`) that
 * lift the private-address guard (spec README, Interface contract). Names match exactly, case-insensitively.
 */
export type AllowedHost = { host: string; port?: number };

export function parseAllowedHosts(value: string | undefined): AllowedHost[] {
  if (!value) return [];
  const out: AllowedHost[] = [];
  for (const raw of value.split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      out.push(withPort(bracketed[1]!, bracketed[2]));
      continue;
    }
    // A bare IPv6 address has several colons and no port.
    const colons = entry.split(":").length - 1;
    if (colons === 1) {
      const [host, port] = entry.split(":") as [string, string];
      out.push(withPort(host, port));
    } else {
      out.push({ host: entry });
    }
  }
  return out;
}

function withPort(host: string, port: string | undefined): AllowedHost {
  return port ? { host, port: Number(port) } : { host };
}

/** The port a URL really connects to. */
export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/** Host of a URL as the allow-list spells it: lower case, IPv6 without brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

export function isHostAllowed(url: URL, allowed: readonly AllowedHost[]): boolean {
  const host = bareHostname(url);
  const port = effectivePort(url);
  return allowed.some((a) => a.host === host && (a.port === undefined || a.port === port));
}
