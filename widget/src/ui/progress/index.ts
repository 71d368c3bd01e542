// The call's chunk: the request (send.ts), the view of a call the relay took and the call tracker,
// fetched once as the visitor submits, so the first dialog the visitor sees does not wait for them.
// One chunk rather than two: both are needed at the same moment, and one file saves a request and
// about 200 B gzip. Its styles come with it (the App adopts them).
export { default as css } from './progress.css?inline';
export { CallProgress, announce } from './CallProgress.tsx';
export { trackCall, type CallProgressState } from './track.ts';
export { send } from '../send.ts';
