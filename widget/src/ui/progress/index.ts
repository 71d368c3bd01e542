// The accepted view and the call tracker: a chunk of their own, fetched as the visitor submits (in
// parallel with the request), so the first dialog the visitor sees does not wait for it.
export { CallProgress } from './CallProgress.tsx';
export { trackCall, initialProgress, type CallProgressState } from './track.ts';
