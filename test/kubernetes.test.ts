/**
 * deploy/kubernetes/ checked without a cluster: every object validates against the
 * Kubernetes JSON schemas (kubernetes-models), and the settings the service relies on
 * hold: probes on /ready and /health, a preStop wait equal to DRAIN_DELAY, a grace period
 * that covers the drain, non-root with a read-only root, secrets taken from the Secret,
 * and selectors that match.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { ROOT } from "./process/helpers.js";

const DIR = path.join(ROOT, "deploy", "kubernetes");

// What each object is validated as; a kind missing here fails the test.
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment,
  "v1/Service": Service,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
};

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field below
  spec: any;
}

const manifests: (Manifest & { file: string })[] = readdirSync(DIR)
  .filter((file) => file.endsWith(".yaml"))
  .sort()
  .flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(DIR, file), "utf8")).map((doc) => ({
      ...(doc.toJS() as Manifest),
      file,
    })),
  );

const find = (kind: string, name: string) => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found;
};

function validate(manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest as never).validate();
}

describe("deploy/kubernetes", () => {
  it("holds the service, its Service, PDB and HPA, and a Redis with its Service", () => {
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual([
      "Deployment/utility-calculation-redis",
      "Deployment/utility-calculation-service",
      "HorizontalPodAutoscaler/utility-calculation-service",
      "PodDisruptionBudget/utility-calculation-service",
      "Service/utility-calculation-redis",
      "Service/utility-calculation-service",
    ]);
  });

  it.each(manifests.map((m) => [`${m.file}: ${m.kind}/${m.metadata.name}`, m] as const))(
    "%s validates against the Kubernetes schema",
    (_name, manifest) => {
      expect(() => validate(manifest)).not.toThrow();
    },
  );

  // The validator can fail: each of these breaks the service's Deployment.
  const broken: [string, (d: Manifest) => void][] = [
    ["replicas as a string", (d) => (d.spec.replicas = "2")],
    ["an image that is not a string", (d) => (d.spec.template.spec.containers[0].image = 1)],
    [
      "a preStop wait as a string",
      (d) => (d.spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds = "5"),
    ],
    ["no selector", (d) => delete d.spec.selector],
  ];
  it.each(broken)("rejects a Deployment with %s", (_why, breakIt) => {
    const copy = structuredClone(find("Deployment", "utility-calculation-service"));
    breakIt(copy);
    expect(() => validate(copy)).toThrow();
  });

  const api = find("Deployment", "utility-calculation-service");
  const pod = api.spec.template.spec;
  const container = pod.containers[0];
  const env = Object.fromEntries(
    (container.env as { name: string; value?: string }[]).map((e) => [e.name, e.value]),
  );

  it.each([
    ["readiness probe", container.readinessProbe.httpGet.path, "/ready"],
    ["liveness probe", container.livenessProbe.httpGet.path, "/health"],
    [
      "preStop wait = DRAIN_DELAY",
      String(container.lifecycle.preStop.sleep.seconds),
      env.DRAIN_DELAY,
    ],
    ["runAsNonRoot", pod.securityContext.runAsNonRoot, true],
    ["the image's user (node)", pod.securityContext.runAsUser, 1000],
    ["read-only root filesystem", container.securityContext.readOnlyRootFilesystem, true],
    ["no privilege escalation", container.securityContext.allowPrivilegeEscalation, false],
    [
      "no rolling update below the replica count",
      api.spec.strategy.rollingUpdate.maxUnavailable,
      0,
    ],
    ["the container port", container.ports[0].containerPort, Number(env.PORT)],
  ])("service Deployment: %s", (_what, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it("takes API_KEYS, ADMIN_TOKEN and DATABASE_URL from the Secret, never written in", () => {
    const fromSecret = Object.fromEntries(
      (
        container.env as {
          name: string;
          value?: string;
          valueFrom?: { secretKeyRef?: { name: string; key: string } };
        }[]
      )
        .filter((e) => ["API_KEYS", "ADMIN_TOKEN", "DATABASE_URL"].includes(e.name))
        .map((e) => [e.name, e.value ?? e.valueFrom?.secretKeyRef]),
    );
    expect(fromSecret).toEqual({
      API_KEYS: { name: "utility-calculation-service", key: "api-keys" },
      ADMIN_TOKEN: { name: "utility-calculation-service", key: "admin-token" },
      DATABASE_URL: { name: "utility-calculation-service", key: "database-url" },
    });
    // With DATABASE_URL the embedded store is unused: no volume to write it to.
    expect(env).not.toHaveProperty("DATA_DIR");
  });

  it("gives a terminating pod time for preStop, the drain and in-flight requests", () => {
    const needed =
      container.lifecycle.preStop.sleep.seconds +
      Number(env.DRAIN_DELAY) +
      Number(env.SHUTDOWN_TIMEOUT);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(needed);
  });

  it("requests memory and CPU (the HPA scales on CPU utilisation of the request)", () => {
    expect(container.resources.requests.memory).toMatch(/^\d+Mi$/);
    expect(container.resources.requests.cpu).toMatch(/^\d+m$/);
    expect(Number.parseInt(container.resources.limits.memory, 10)).toBeGreaterThan(
      Number.parseInt(container.resources.requests.memory, 10),
    );
  });

  it("points the Service, PDB and HPA at the Deployment, and REDIS_URL at the Redis Service", () => {
    const labels = api.spec.template.metadata.labels;
    expect(find("Service", "utility-calculation-service").spec.selector).toEqual(labels);
    expect(
      find("PodDisruptionBudget", "utility-calculation-service").spec.selector.matchLabels,
    ).toEqual(labels);
    expect(api.spec.selector.matchLabels).toEqual(labels);
    const hpa = find("HorizontalPodAutoscaler", "utility-calculation-service").spec;
    expect(hpa.scaleTargetRef).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      name: api.metadata.name,
    });
    expect(hpa.minReplicas).toBeGreaterThanOrEqual(2);

    const redis = find("Deployment", "utility-calculation-redis");
    const redisService = find("Service", "utility-calculation-redis");
    expect(redisService.spec.selector).toEqual(redis.spec.template.metadata.labels);
    expect(env.REDIS_URL).toBe(
      `redis://${redisService.metadata.name}:${redisService.spec.ports[0].port}`,
    );
    expect(redis.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(redis.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem).toBe(
      true,
    );
  });
});
