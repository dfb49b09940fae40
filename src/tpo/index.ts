export type { TpoProfile, TpoRow } from "./types.js"
