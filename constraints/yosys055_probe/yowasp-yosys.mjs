#!/usr/bin/env node
// gsched: runs @yowasp/yosys (Yosys built for WebAssembly, from npm) like a yosys binary, for the
// evaluation in docs/area-timing.md ("Yosys 0.55 (yowasp) evaluation"); not used by the flow.
//   mkdir -p build/yowasp && (cd build/yowasp && npm install @yowasp/yosys@0.55.944)
//   YOWASP_DIR=build/yowasp node constraints/yosys055_probe/yowasp-yosys.mjs <yosys args>
// YOWASP_DIR: the folder npm installed into (default build/yowasp).
// The package has no CLI, only runYosys(args, files) over an in-memory file tree. This wrapper
// copies the folders (or files) named in YOWASP_MOUNT (space separated, relative to the current
// directory; default "rtl constraints") into that tree at the same relative paths, runs Yosys
// with the tree's root as its working directory, and when it ends writes every new top-level
// file (-l logs, tee -o files) into the current directory. Exit status = Yosys'.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = path.join(process.env.YOWASP_DIR ?? 'build/yowasp', 'node_modules/@yowasp/yosys/gen/bundle.js');
const { runYosys, Exit } = await import(pathToFileURL(pkg).href);

function load(dir) {
  const t = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) t[e.name] = load(p);
    else if (e.isFile()) t[e.name] = fs.readFileSync(p);
  }
  return t;
}
const mounts = (process.env.YOWASP_MOUNT ?? 'rtl constraints').split(/\s+/).filter(Boolean);
const files = {};
for (const m of mounts.filter((m) => fs.existsSync(m))) {
  let t = files; const parts = m.split('/');
  for (const p of parts.slice(0, -1)) t = (t[p] ??= {});
  t[parts.at(-1)] = fs.statSync(m).isDirectory() ? load(m) : fs.readFileSync(m);
}
const before = new Set(Object.keys(files));
function writeBack(tree) {
  for (const [k, v] of Object.entries(tree ?? {}))
    if (!before.has(k) && (typeof v === 'string' || v instanceof Uint8Array)) fs.writeFileSync(k, v);
}
const out = (b) => { if (b) process.stdout.write(b); };
try {
  const res = await runYosys(process.argv.slice(2), files, { stdout: out, stderr: out, decodeASCII: false });
  writeBack(res);
  process.exit(0);
} catch (e) {
  if (e instanceof Exit) { writeBack(e.files); process.exit(e.code); }
  throw e;
}
