import type { TestProject } from "vitest/node";
import { startFakeS3 } from "../support/fake-s3";

/**
 * Global setup of the "worker" project: the fake S3 (test/support/fake-s3.ts, SigV4 recomputed with node:crypto,
 * presigned URLs included) that stands in for R2's S3 API, for the Worker's own multipart calls and the URLs it
 * presigns (test/worker/presigned-storage.test.ts). R2_S3_ENDPOINT = fakeS3Url, with these credentials.
 */
export const FAKE_S3_CREDENTIALS = { accessKeyId: "AKIDPRESIGN", secretAccessKey: "s3cr3t-never-leaves", region: "auto" } as const;

declare module "vitest" {
  export interface ProvidedContext {
    fakeS3Url: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const s3 = await startFakeS3({ ...FAKE_S3_CREDENTIALS });
  project.provide("fakeS3Url", s3.url);
  return () => s3.close();
}
