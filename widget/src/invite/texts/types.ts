// The invitation's words in one language: the sentence when someone can answer now, the sentence
// when nobody can but a call can be booked for later, and the close button's name.
export type InviteTexts = readonly [now: string, later: string, close: string];
