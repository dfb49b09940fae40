/** Colours shared by the SVG renderings, so a mark looks the same in every picture. */
export const SELL = '#dc2626'
export const BUY = '#16a34a'
/** POC outline (footprint) and POC line (TPO chart). */
export const POC = '#d97706'
/** Value-area shading of TPO letters. */
export const VA_FILL = '#dbeafe'
/** Initial balance bracket; also the unfinished-auction mark. */
export const IB = '#7c3aed'
