/** The studio's version, kept in step with package.json by a unit test. */
export const STUDIO_VERSION = '0.1.0';
