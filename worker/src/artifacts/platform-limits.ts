/**
 * Cloudflare's and R2's published limits that uploads through the Worker must respect (multipart-upload.ts says
 * how). A leaf module: the Worker's config (config.ts) checks UPLOAD_PART_BYTES against them too.
 */

/** R2's smallest allowed part (all but the last). */
export const R2_MIN_PART_BYTES = 5 * 1024 * 1024;
export const R2_MAX_PARTS = 10_000;
/** R2's largest object: 5 TiB minus 5 GiB. */
export const R2_MAX_OBJECT_BYTES = 5 * 1024 ** 4 - 5 * 1024 ** 3;
/** Cloudflare's request body limit on the Free and Pro plans: no single request to the Worker may exceed it. */
export const WORKER_MAX_REQUEST_BYTES = 100_000_000;
