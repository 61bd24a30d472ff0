/** Countries offered at signup (lower-case ISO 3166-1 alpha-2, as the server stores them). */
export const COUNTRIES = ['de', 'at', 'ch', 'nl', 'be', 'fr', 'it', 'es', 'pl', 'dk', 'se', 'no', 'gb', 'ie', 'us', 'ca'] as const;
