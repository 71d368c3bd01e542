// The callback limits, one concept per file; this file only re-exports them.
export { createLimiter, type Limiter, type LimiterDeps } from './limiter.ts';
export type { AdmitInput } from './plan.ts';
export type { Admission } from './admission.ts';
export { LimitRefusalError } from './refusal.ts';
