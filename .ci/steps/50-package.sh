# Packaging: every exported class keeps its name in the ESM and CommonJS builds, and the packed package.json
# has no install-time script (scripts/check-package.mjs; dist/ is the one .ci/run built).
node scripts/check-package.mjs
