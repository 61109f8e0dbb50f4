/**
 * The documentation stays true: README's operations table and docs/api.md are what the
 * registry generates (`npm run docs` rewrites them), every sample answer in README is
 * what the service answers, README stays short, every relative link and anchor in
 * README.md and docs/ resolves inside the repository, and docs/configuration.md has a row
 * for every variable src/config.ts reads (integer defaults included).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERATED, renderOperationsTable, replaceGenerated, slug } from "../scripts/lib/docs.js";
import { AUTH, allOperations, testApp } from "./helpers.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const operations = await allOperations();

/**
 * Pages other engineers are writing on their branches. A link to one that does not exist
 * yet is listed, not failed; once the page exists its links and anchors are checked like
 * any other. Empty while every linked page is on main.
 */
const PENDING = new Set<string>([]);

function markdownFiles(): string[] {
  const found = ["README.md"];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
      const relative = path.join(dir, name);
      if (statSync(path.join(ROOT, relative)).isDirectory()) walk(relative);
      else if (name.endsWith(".md")) found.push(relative);
    }
  };
  if (existsSync(path.join(ROOT, "docs"))) walk("docs");
  return found;
}

/** Lines outside fenced code blocks, with their numbers and inline code removed. */
function proseLines(text: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let fenced = false;
  for (const [index, raw] of text.split("\n").entries()) {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push({ line: index + 1, text: raw.replace(/`[^`]*`/g, "") });
  }
  return lines;
}

/** The anchors GitHub gives a file's headings (a repeated heading gets `-1`, `-2`…). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(path.join(ROOT, file), "utf8").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const base = slug(heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Finding {
  where: string;
  target: string;
  problem: string;
}

function checkLinks(): { broken: Finding[]; pending: Finding[] } {
  const broken: Finding[] = [];
  const pending: Finding[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    for (const { line, text: prose } of proseLines(text)) {
      for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1] as string;
        const where = `${file}:${line}`;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http(s), mailto: not fetched
        const [pathPart = "", anchor] = target.split("#");
        const resolved = pathPart
          ? path.normalize(path.join(path.dirname(file), decodeURIComponent(pathPart)))
          : file;
        if (resolved.startsWith("..") || path.isAbsolute(resolved)) {
          broken.push({ where, target, problem: "points outside the repository" });
          continue;
        }
        if (!existsSync(path.join(ROOT, resolved))) {
          (PENDING.has(resolved) ? pending : broken).push({
            where,
            target,
            problem: PENDING.has(resolved)
              ? "not written yet (pending on another branch)"
              : "no such file",
          });
          continue;
        }
        if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) {
          broken.push({ where, target, problem: `no heading with anchor #${anchor}` });
        }
      }
    }
  }
  return { broken, pending };
}

const show = (findings: Finding[]) => findings.map((f) => `${f.where}: ${f.target} — ${f.problem}`);

describe("links in README.md and docs/", () => {
  it("every relative link and anchor resolves inside the repository", () => {
    const { broken, pending } = checkLinks();
    if (pending.length > 0) {
      console.info(`Links to pages not merged yet:\n  ${show(pending).join("\n  ")}`);
    }
    expect(show(broken)).toEqual([]);
  });

  it("the checker catches what it should", () => {
    expect(slug("Node.js versions")).toBe("nodejs-versions");
    expect(slug("math/is-between")).toBe("mathis-between");
    expect(slug("Area `math`")).toBe("area-math");
    expect(proseLines("a [x](y)\n```\n[z](w)\n```\n`[q](r)` b").map((l) => l.text)).toEqual([
      "a [x](y)",
      " b",
    ]);
  });
});

describe("generated documentation", () => {
  it.each(GENERATED.map((g) => [g.file, g] as const))(
    "%s is up to date (npm run docs)",
    (file, g) => {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      expect(
        replaceGenerated(text, g.block, g.render(operations)) === text,
        "run `npm run docs`",
      ).toBe(true);
    },
  );

  // The operations table grows with the registry (a module dropped in adds a row); the
  // prose around it is what must stay short.
  it("README's prose fits on a screen or two: under 6 KB beside the generated table", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const table = renderOperationsTable(operations);
    expect(readme).toContain(table);
    expect(Buffer.byteLength(readme.replace(table, ""))).toBeLessThan(6144);
    expect(statSync(path.join(ROOT, "README.md")).size).toBeLessThan(
      6144 + Buffer.byteLength(table),
    );
  });
});

describe("docs/configuration.md lists every variable src/config.ts reads", () => {
  const source = readFileSync(path.join(ROOT, "src/config.ts"), "utf8");
  const table = new Map(
    [
      ...readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8").matchAll(
        /^\| `([A-Z_]+)` \| ([^|]*) \|/gm,
      ),
    ].map((m) => [m[1] as string, (m[2] as string).trim()] as const),
  );
  const names = [
    ...new Set(
      [...source.matchAll(/env\.([A-Z_]+)|env, "([A-Z_]+)"/g)].map((m) => (m[1] ?? m[2]) as string),
    ),
  ];
  const integerDefaults = [...source.matchAll(/integerFrom\(env, "([A-Z_]+)", ([\d_]+)/g)].map(
    (m) => [m[1] as string, (m[2] as string).replaceAll("_", "")] as const,
  );

  it("reads some variables, and the checker sees integer defaults", () => {
    expect(names).toContain("PORT");
    expect(integerDefaults).toContainEqual(["WORKERS", "1"]);
  });

  it.each(names)("%s has a row", (name) => {
    expect(table.has(name), `add ${name} to docs/configuration.md`).toBe(true);
  });

  it.each(integerDefaults)("%s's default is %s", (name, fallback) => {
    expect(table.get(name)).toMatch(new RegExp(`^\`${fallback}\``));
  });
});

describe("README's sample answers are what the service answers", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const rows = [...readme.matchAll(/^\| \[([^\]]+)\]\([^)]*\) \| `([^`]+)` → `(.+)` \|$/gm)].map(
    (m) => [m[1] as string, m[2] as string, (m[3] as string).replaceAll("\\|", "|")] as const,
  );

  it("lists every operation once", () => {
    expect(rows.map(([id]) => id).sort()).toEqual(
      operations.map((operation) => `${operation.area}/${operation.name}`).sort(),
    );
  });

  it.each(rows)("%s: GET %s", async (id, url, answer) => {
    const response = await app.inject({ url, headers: AUTH });
    expect(response.statusCode, response.body).toBe(200);
    if (!answer.endsWith("…")) {
      expect(response.json()).toEqual(JSON.parse(answer));
      return;
    }
    // A long answer is shown cut: it is the start of the example's, which is the answer.
    const example = operations.find((o) => `${o.area}/${o.name}` === id)?.examples[0];
    expect(JSON.stringify(example?.output).startsWith(answer.slice(0, -1))).toBe(true);
    expect(response.json()).toEqual(example?.output);
  });
});
