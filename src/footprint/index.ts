export type { FootprintProfile, FootprintRow } from "./types.js"
