/** Tables of the chat domain (its migration declares them). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ChatTables {}
