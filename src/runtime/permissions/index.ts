export { closureOf, implicationsOf, type Implications, type ImplicationsInit } from './capabilities.js';
export { globToRegExp, type NamePattern } from './patterns.js';
export { normalisedPathSubject, resolvePathSubject } from './paths.js';
export type { PermissionRule } from './rules.js';
export {
  PermissionDeniedError,
  PermissionNeeded,
  TooManyPermissionQuestionsError,
  type PermissionDenial,
  type PermissionQuestion,
} from './errors.js';
export {
  PERMISSION_DECISIONS,
  type PermissionDecision,
  type PermissionAnswer,
  type AskPermission,
  type PermissionEffect,
  type PermissionVerdict,
  type StoredDecision,
} from './decision.js';
export {
  PERMISSION_FORM,
  NO_ANSWER_REASON,
  ASK_FAILED_REASON,
  ASK_TIMED_OUT_REASON,
  DEFAULT_ASK_TIMEOUT_MS,
  questionText,
  questionElicitation,
  answerOfElicitation,
} from './ask.js';
export { DecisionMap } from './decision-map.js';
export { MemoryDecisionStore } from './memory-decision-store.js';
export {
  PermissionPolicy,
  createPolicy,
  DEFAULT_MAX_PERMISSION_QUESTIONS,
  type PermissionPolicyOptions,
  type PermissionVerdicts,
} from './policy.js';
export type { RememberedDecisionStore, DecisionSelector } from './remembered.js';
export {
  PERMISSIONS_RECORD_NS,
  type PermissionDecisionEntry,
  type PermissionGrantEntry,
  type PermissionRecordData,
} from './invocation.js';
export { decisionOwnerOf, principalIdOf, type DecisionOwner } from './owner.js';
