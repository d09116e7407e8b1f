export { createChecker, type CheckerOptions, type CheckerService } from './checker.js';
export { INDUCED_TREE_CHECKER_ID, verifyInducedTree } from './graph/induced-tree-verify.js';
export { checkMaximumInducedTreeClaim, exhaustiveMaximumInducedTree, EXHAUSTIVE_MAX_ORDER } from './graph/induced-tree-exhaustive.js';
export { checkDrat } from './sat/drat-check.js';
export { checkLpCertificateClaim } from './lp/lp-certificate-verify.js';
export { checkFactorizationClaim, checkPrimalityClaim, PrimalityRejectionReason } from './numbers/primality/primality-verify.js';
