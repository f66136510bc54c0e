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
  sequence: number;
  time: string;
  method: string;
  url: string;
  path: string;
  session?: string;
  headers: Array<[string, string]>;
  body?: string;
  bodyBase64?: string;
  bodySize: number;
  matched: boolean;
  route?: string;
  nearMiss?: string;
  status?: number;
  fault?: string;
  latencyMs: number;
  resend?: boolean;
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
