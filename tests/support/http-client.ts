/**
 * A fetch client that keeps cookies like a browser for one origin. No vitest imports: the stress
 * processes and the load script use it too. `baseUrl` may be pointed at a restarted server (the
 * session lives in the database).
 */
export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (throws if not JSON). */
  json<T = unknown>(): T;
}

export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(public baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: string,
    urlPath: string,
    opts: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size > 0 && !('cookie' in headers)) headers.cookie = this.cookieHeader;
    let body = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(opts.json);
    }
    const res = await fetch(this.baseUrl + urlPath, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const maxAge = attrs.map((a) => a.trim().toLowerCase()).find((a) => a.startsWith('max-age='));
      if (value === '' || maxAge === 'max-age=0') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: <T>() => JSON.parse(text) as T,
    };
  }

  post(urlPath: string, json?: unknown, headers?: Record<string, string>): Promise<TestResponse> {
    return this.request('POST', urlPath, { json: json ?? {}, headers });
  }

  get(urlPath: string, headers?: Record<string, string>): Promise<TestResponse> {
    return this.request('GET', urlPath, { headers });
  }
}
