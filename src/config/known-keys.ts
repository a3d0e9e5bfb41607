/**
 * Top-level config.toml keys the reference defines, derived from the schema (schema.ts). Keys
 * outside this set draw a warning (a typo should be visible) but never an error (a newer
 * reference key must not break us).
 */
export { KNOWN_TOP_LEVEL_KEYS } from "./schema.js";
