/**
 * Shared by the Node-side doubles (dispatch-fixtures.node.ts) and the Worker tests: how tests steer and read the
 * renderer double and the webhook receiver over HTTP.
 */

/** Bearer token the renderer double requires; the Worker sends RENDERER_TOKEN. */
export const TEST_RENDERER_TOKEN = "test-renderer-token";

/**
 * A job whose request carries this streamer_name is accepted by the renderer double without being registered
 * first (the real queue delivers it before a test could register the new id). Every other unregistered job is
 * answered 503, so the real queue deliveries of other test files never start anything.
 */
export const ACCEPT_MARKER = "renderer-double-accepts";

/**
 * GET {rendererUrl}/__test/jobs/{id}; and GET {rendererUrl}/__test/jobs/{id}/starts/{task}/{attempt}?wait_ms=N,
 * answered with that start's body once it has arrived, or 404 after N ms.
 */
export interface RendererJobLog {
  /** Every POST /tasks body received for the job's tasks, in order (including refused ones). */
  starts: unknown[];
  /** HTTP status answered to each start. */
  answers: number[];
  cancels: number;
  /** Task ids of every POST /tasks/{key}/cancel, in order. */
  cancelledTasks: string[];
  /** Authorization header of the last request for this job. */
  authorization: string | null;
}

/** PUT {hooksUrl}/__test/boxes/{box} */
export interface BoxConfig {
  /** Answer to every delivery (default 200). 3xx answers carry a Location header. */
  status?: number;
  /** Account signing secret the receiver verifies X-Service-Signature with (node:crypto, not project code). */
  secret?: string;
}

/** One delivery as the receiver saw it: GET {hooksUrl}/__test/boxes/{box} -> { deliveries: ReceivedDelivery[] } */
export interface ReceivedDelivery {
  at: number;
  headers: Record<string, string>;
  /** The raw body as received (UTF-8). */
  body: string;
  /** X-Service-Signature checked against HMAC-SHA256(secret, raw body) by the receiver; null without a secret. */
  signature_valid: boolean | null;
  /**
   * The Standard Webhooks headers checked by the receiver with node:crypto as the Standard Webhooks specification
   * says (key: base64 decoding of the secret after `whsec_`; signed: "<webhook-id>.<webhook-timestamp>.<raw body>";
   * any `v1,<base64>` entry may match); null without a secret.
   */
  standard_signature_valid: boolean | null;
  answered: number;
}
