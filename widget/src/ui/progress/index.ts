// The view of a call the relay took and the call tracker: a chunk of their own, fetched as the
// visitor submits (in parallel with the request), so the first dialog the visitor sees does not wait
// for it. Its styles come with it (the App adopts them).
export { default as css } from './progress.css?inline';
export { CallProgress, announce } from './CallProgress.tsx';
export { trackCall, type CallProgressState } from './track.ts';
