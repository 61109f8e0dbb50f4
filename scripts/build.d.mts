// Types for build.mjs, which stays plain JavaScript so that `npm start` runs it uncompiled.
export function satisfies(version: string, range: string): boolean;
export function nodeProblem(version: string, range: string): string | undefined;
export function newestInput(root: string): number;
export function upToDate(root: string): boolean;
export function prebuildModules(dist: string): string[];
export function runPrebuilds(dist: string): string | undefined;
