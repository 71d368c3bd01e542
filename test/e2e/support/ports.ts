// Kept for the e2e files that import deadUrl from here; it lives with the other listening helpers.
export { deadUrl } from '../../_util/listen.ts';
