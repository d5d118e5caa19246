// Drives the real ccd-mcp shim with the official TypeScript MCP SDK client:
// lists the tools, then calls canvas init and impact on a fixture project
// (testdata/hooks/repos/shop.txtar, unpacked to a temporary directory).
// Exits non-zero with a message on any mismatch.
//
//   node scripts/mcp-client-check.mjs BIN_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { execFileSync } from "node:child_process";

const bin = resolve(process.argv[2] ?? "bin");
const top = resolve(dirname(new URL(import.meta.url).pathname), "..");

function fail(msg) {
  console.error("mcp-client-check: FAIL: " + msg);
  process.exit(1);
}

// Unpack a txtar archive: "-- name --" lines start files.
function unpack(archive, dir) {
  let name = null;
  let lines = [];
  const flush = () => {
    if (name !== null) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), lines.join("\n") + (lines.length ? "\n" : ""));
    }
  };
  for (const line of readFileSync(archive, "utf8").split("\n")) {
    const m = line.match(/^-- (.+) --$/);
    if (m) {
      flush();
      name = m[1];
      lines = [];
    } else if (name !== null) {
      lines.push(line);
    }
  }
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  flush();
}

const work = mkdtempSync("/tmp/ccdm");
const repo = join(work, "shop");
const home = join(work, "home");
mkdirSync(home, { recursive: true });
unpack(join(top, "testdata/hooks/repos/shop.txtar"), repo);
const env = { ...process.env, CCD_HOME: home, CCD_EXE: join(bin, "ccd"), CCD_SOCKET: "", XDG_RUNTIME_DIR: "" };

const transport = new StdioClientTransport({ command: join(bin, "ccd-mcp"), args: [], cwd: repo, env, stderr: "inherit" });
const client = new Client({ name: "ccd-ci-node-client", version: "1.0.0" });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const canvas = tools.find((t) => t.name === "canvas");
  if (!canvas) fail("tools/list has no canvas tool: " + JSON.stringify(tools.map((t) => t.name)));
  for (const p of ["action", "repo_path", "symbol", "text", "kind", "depth", "max_nodes", "task_id"]) {
    if (!(p in (canvas.inputSchema.properties ?? {}))) fail("canvas schema lacks " + p);
  }
  const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
  const images = (res) => res.content.filter((c) => c.type === "image");

  const init = await client.callTool({ name: "canvas", arguments: { action: "init", repo_path: repo } });
  if (init.isError) fail("init failed: " + text(init));
  if (!/Board: 1 evidence/.test(text(init))) fail("init answer lacks the board line:\n" + text(init));
  if (images(init).length !== 2) fail(`init returned ${images(init).length} images, want 2`);
  for (const im of images(init)) {
    const png = Buffer.from(im.data, "base64");
    if (im.mimeType !== "image/png" || png.subarray(1, 4).toString() !== "PNG") fail("init image is not a PNG");
  }

  const impact = await client.callTool({ name: "canvas", arguments: { action: "impact", symbol: "price_of" } });
  if (impact.isError) fail("impact failed: " + text(impact));
  const t = text(impact);
  for (const want of ["price_of", "Cart.total", "line", "test_total", "Board: 2 evidence"]) {
    if (!t.includes(want)) fail(`impact answer lacks ${want}:\n${t}`);
  }
  if (images(impact).length !== 2) fail(`impact returned ${images(impact).length} images, want 2`);

  const missing = await client.callTool({ name: "canvas", arguments: { action: "impact", symbol: "price_off" } });
  if (!missing.isError || !text(missing).includes("price_of")) fail("a misspelt symbol should fail with a suggestion:\n" + text(missing));

  console.log(`mcp-client-check: ok (TypeScript SDK client: ${tools.length} tool(s); init ${images(init).length} images; impact of price_of found its callers and tests)`);
} finally {
  await client.close().catch(() => {});
  try {
    execFileSync(join(bin, "ccd"), ["stop"], { env, stdio: "ignore" });
  } catch {}
  rmSync(work, { recursive: true, force: true });
}
