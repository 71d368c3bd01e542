// A store's own records of one number, found and erased by the number's keyed hash
// (phone/number-hash.ts), for a visitor's data on request (number-data/): each store knows its keys
// or tables, and number-data/ only puts the stores' answers together.
export interface RecordsByNumber<T> {
  /** The records of the number, oldest first. */
  ofNumber(numberHash: string): Promise<T[]>;
  /** Deletes them with their index entries; answers how many records there were. */
  eraseNumber(numberHash: string): Promise<number>;
}
