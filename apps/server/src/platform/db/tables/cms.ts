/** Tables of the cms domain (its migration declares them). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CmsTables {}
