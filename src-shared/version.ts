/**
 * The studio's version (kept in step with package.json by a unit test) and the engine version that
 * run records and GET /status report: the studio version plus the graph builder's version.
 */
export const STUDIO_VERSION = '0.1.0';

export function engineVersionOf(builderVersion: string): string {
  return `${STUDIO_VERSION}+graphs.${builderVersion}`;
}
