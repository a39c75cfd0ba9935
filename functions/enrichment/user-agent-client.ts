import { UAParser } from 'ua-parser-js';

/**
 * The client named by a User-Agent string: browser (or HTTP library), operating system and device
 * type, by ua-parser-js 1.x (MIT; 2.x is AGPL). API traffic is mostly HTTP libraries and tools,
 * which ua-parser-js does not name: the patterns below name the common ones.
 */

export interface UserAgentClient {
  /** Browser or HTTP library: `Chrome`, `Mobile Safari`, `curl`, `python-requests`. */
  readonly name?: string;
  readonly major?: string;
  readonly os_name?: string;
  readonly os_major?: string;
  /** `mobile`, `tablet`, `smarttv`, `console`, `wearable`, `embedded`, or `desktop` for a desktop OS. */
  readonly device_type?: string;
  /** Vendor and model, when the string names them: `Apple iPhone`. */
  readonly device?: string;
}

const NAME = UAParser.BROWSER.NAME;
const VERSION = UAParser.BROWSER.VERSION;

/** HTTP libraries and API tools, as `name/version` at the start of the string (most) or after a space. */
const HTTP_CLIENTS: Record<string, unknown> = {
  browser: [
    [/^(curl|wget|httpie|insomnia|okhttp|axios|node-fetch|undici|got|superagent|restsharp|k6|bun|deno|dart)\/([\w.-]+)/i],
    [NAME, VERSION],
    [/^(python-requests|python-urllib3?|python-httpx|go-http-client|apache-httpclient|libwww-perl|guzzlehttp)\/([\w.-]+)/i],
    [NAME, VERSION],
    [/^postmanruntime\/([\w.-]+)/i],
    [VERSION, [NAME, 'Postman']],
    [/\b(aiohttp|faraday|httpx)\/([\w.-]+)/i],
    [NAME, VERSION],
    [/^(java|ruby|node)\/([\w.-]+)/i],
    [NAME, VERSION],
    // Node's own fetch sends `node` and nothing else.
    [/^(node)$/i],
    [NAME],
  ],
};

const DESKTOP_SYSTEMS = new Set(['Windows', 'Mac OS', 'macOS', 'Linux', 'Ubuntu', 'Debian', 'Fedora', 'Chromium OS', 'FreeBSD', 'OpenBSD']);

/** Distinct strings parsed before the cache starts over: API traffic repeats a handful of agents. */
const CACHE_LIMIT = 2000;
const MAX_LENGTH = 1024;

export class UserAgentParser {
  private readonly cache = new Map<string, UserAgentClient | undefined>();

  /** Undefined when nothing in the string is recognised. */
  parse(userAgent: string): UserAgentClient | undefined {
    if (this.cache.has(userAgent)) return this.cache.get(userAgent);
    const client = clientOf(userAgent.slice(0, MAX_LENGTH));
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(userAgent, client);
    return client;
  }
}

function clientOf(userAgent: string): UserAgentClient | undefined {
  const { browser, os, device } = new UAParser(userAgent, HTTP_CLIENTS).getResult();
  const deviceType = device.type ?? (os.name !== undefined && DESKTOP_SYSTEMS.has(os.name) && browser.name !== undefined ? 'desktop' : undefined);
  const model = [device.vendor, device.model].filter(Boolean).join(' ');
  const client: UserAgentClient = {
    ...(browser.name ? { name: browser.name } : {}),
    ...(browser.version ? { major: majorOf(browser.version) } : {}),
    ...(os.name ? { os_name: os.name } : {}),
    ...(os.version ? { os_major: majorOf(os.version) } : {}),
    ...(deviceType ? { device_type: deviceType } : {}),
    ...(model ? { device: model } : {}),
  };
  return Object.keys(client).length === 0 ? undefined : client;
}

function majorOf(version: string): string {
  return version.split('.')[0]!;
}
