/**
 * Whether a body is what every error of the service sends: a JSON object (or array). The
 * soak, the abuse tests and the fuzz oracle check every error answer with it.
 */
export function isJsonObject(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null;
  } catch {
    return false;
  }
}
