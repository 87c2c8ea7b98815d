/**
 * Why a typed number is refused: one set of codes for the browser's reader (element/phone-read.ts)
 * and the companion's libphonenumber-js reading (phone.ts). A module of its own that imports
 * nothing, so that the browser package's files and types never name libphonenumber-js: the
 * element reads numbers without it, and `@momo-checkout/element` does not install it (10 MB).
 */
export type PhoneErrorCode = 'EMPTY' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_COUNTRY' | 'NOT_A_NUMBER' | 'NOT_MOBILE' | 'INVALID';
