#!/usr/bin/env node
// Bundles the renderer (render-container/src/main.ts plus common/ and its npm dependencies) into ONE file that
// runs with plain `node` and no node_modules. The only place the bundling flags live: the renderer image's
// build stage (render-container/Dockerfile), `npm run build:renderer` and the bundle test
// (test/renderer/bundle/) all run this script, so they cannot drift apart.
//
//   node scripts/bundle-renderer.mjs [outfile]      (default: <repo>/dist/renderer.mjs)
//
// esbuild comes from node_modules (a dependency of wrangler and vitest-pool-workers; not a direct dependency).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The esbuild options of the renderer bundle. */
export function rendererBuildOptions(outfile) {
  return {
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, "render-container/src/main.ts")],
    outfile: path.resolve(ROOT, outfile),
    bundle: true,
    platform: "node",
    target: "node22",
    format: "esm",
    // An ESM bundle has no `require`; CommonJS code bundled in may still call it for Node built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: "info",
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outfile = process.argv[2] ? path.resolve(process.cwd(), process.argv[2]) : path.join(ROOT, "dist/renderer.mjs");
  await build(rendererBuildOptions(outfile));
}
