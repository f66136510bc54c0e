// Types of @stubd/kit (src/index.js). Checked by `tsc --noEmit` where TypeScript is installed;
// make test runs the kit's node --test suite and checks that every export here exists there.

/** The header that puts a request in a session. */
export const SESSION_HEADER: "X-Stubd-Session";

/** A response in the fixture format (docs/FIXTURES.md). */
export interface StubResponse {
  status?: number;
  json?: unknown;
  text?: string;
  base64?: string;
  headers?: Record<string, string>;
  defaultHeaders?: boolean;
}

/** An answer that is not a response. */
export type StubAnswerOther =
  | { fault: "reset" | "empty" | "truncated" | "badChunk" | "garbage" | "hang" }
  | { stream: Record<string, unknown> }
  | { llm: Record<string, unknown> }
  | { networkError: { domain: string; code: number } };

/** What a stub answers: one answer, or a sequence answered in turn. */
export type StubAnswer =
  | StubResponse
  | StubAnswerOther
  | { sequence: Array<StubResponse | StubAnswerOther>; afterLast?: "repeatLast" | "cycle" };

/** Journal filters (`GET /__stubd/requests`). */
export interface RequestFilters {
  method?: string;
  path?: string;
  route?: string;
  matched?: "true" | "false";
}

/** A journal entry (docs/admin-api.openapi.json's RequestRecord). */
export interface RequestRecord {
  /** its number in the journal */
  sequence: number;
  /** when it arrived (ISO 8601, UTC) */
  time: string;
  /** the method as sent */
  method: string;
  /** path and query as sent */
  url: string;
  /** the path, percent-decoded */
  path: string;
  /** scheme and host, for a request through the forward proxy */
  server?: string;
  /** its session: X-Stubd-Session, proxy credentials or a session's proxy port */
  session?: string;
  /** the connection it came on */
  connection?: number;
  /** which request of that connection it was (1: the first) */
  connectionRequest?: number;
  /** h2 for a request on an HTTP/2 stream (absent: HTTP/1.x) */
  protocol?: string;
  /** headers in order, as the client sent them */
  headers: Array<[string, string]>;
  /** the body as text (possibly cut) */
  body?: string;
  /** the body as base64, when it is not UTF-8 text */
  bodyBase64?: string;
  /** the whole body's size in bytes */
  bodySize: number;
  /** why no body is shown */
  bodyNote?: string;
  /** whether a route answered */
  matched: boolean;
  /** the id of the route that answered */
  routeId?: string;
  /** the name of the route that answered */
  route?: string;
  /** for a miss: the closest route and why it missed */
  nearMiss?: string;
  /** the status sent */
  status?: number;
  /** the fault sent instead of a response */
  fault?: string;
  /** beforeStatus: a fault step sent as a 502 head with two lengths, failing before the status; cutShort: one of an inBody route, sent as a 200 head with its body cut */
  faultSentAs?: string;
  /** milliseconds from arrival to the reply */
  latencyMs: number;
  /** the response sent: status, headers, the first body bytes, the size */
  response?: unknown;
  /** a client's silent re-send after a fault that sent no byte (not counted) */
  resend?: boolean;
  /** Members a newer stubd sends. */
  [other: string]: unknown;
}

/** `STUBD_MODE`. */
export type StubdMode = "playback" | "record" | "live";

/** An admin call stubd refused. */
export class StubdAdminError extends Error {
  readonly status: number;
  readonly problems: string[];
}

/** A count that was not what the test expected, or a strict session with unused stubs or misses. */
export class StubdExpectationError extends Error {}

/** A stubd server. */
export class Stubd {
  constructor(options?: { baseURL?: string; token?: string });
  readonly baseURL: string;
  readonly token?: string;
  call(method: "GET" | "POST" | "PUT" | "DELETE", template: string,
       options?: { params?: string[]; body?: unknown; session?: string; query?: Record<string, string | undefined> }): Promise<any>;
  ready(options?: { timeoutMs?: number }): Promise<unknown>;
  session(name?: string): StubdSession;
}

/** One test's share of a stubd. */
export class StubdSession {
  readonly stubd: Stubd;
  readonly id: string;
  readonly headers: { "X-Stubd-Session": string };
  fetch(path: string, init?: RequestInit): Promise<Response>;
  call(method: "GET" | "POST" | "PUT" | "DELETE", template: string,
       options?: { params?: string[]; body?: unknown; query?: Record<string, string | undefined> }): Promise<any>;
  stub(method: string, path: string, answer?: StubAnswer,
       options?: { request?: Record<string, unknown>; delay?: number; name?: string }): Promise<string>;
  addRoutes(document: unknown): Promise<string[]>;
  stubFile(file: string): Promise<string[]>;
  requests(filters?: RequestFilters): Promise<RequestRecord[]>;
  count(method: string, path: string): Promise<number>;
  expect(method: string, path: string, count: number): Promise<void>;
  verifyStrict(options?: { mode?: StubdMode }): Promise<void>;
  snapshot(filters?: RequestFilters): Promise<string>;
  setClock(now: Date | string | null): Promise<unknown>;
  setScenario(name: string, state: string): Promise<unknown>;
  proxyPort(): Promise<{ port: number; session: string; proxy: string }>;
  useRecording(folder: string, options?: { upstream?: string; mode?: StubdMode }): Promise<void>;
  finishRecording(options?: { mode?: StubdMode }): Promise<void>;
  end(): Promise<void>;
}

/**
 * A session per test for Vitest, Jest or node:test; returns the running test's session. Tests that
 * run at once pass their context (`session(t)`): each session belongs to its test's context.
 */
export function sessionPerTest(stubd: { session(): StubdSession },
                               hooks: { beforeEach: (fn: (...args: any[]) => unknown) => unknown; afterEach: (fn: (...args: any[]) => unknown) => unknown },
                               options?: { strict?: boolean }): (context?: object) => StubdSession;

/** Puts every request of a Playwright browser context in `session` (its header on the context). */
export function useSessionInContext(context: { setExtraHTTPHeaders(headers: Record<string, string>): Promise<void> },
                                    session: StubdSession): Promise<void>;

/** `STUBD_MODE`: playback (default), record or live. */
export function currentMode(): StubdMode;
