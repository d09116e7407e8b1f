/**
 * The size bounds of dense matrices. Every matrix a request gives or an artifact holds is checked
 * against them before any arithmetic starts, so that parsing stays bounded whatever the request.
 * Time is bounded by the run's budget, not by these: fraction-free elimination of a 200×200
 * matrix of 4096-bit entries handles intermediate minors of up to about 200·4096 bits.
 */
export const MATRIX_LIMITS = {
  /** Rows of one matrix. */
  maxRows: 200,
  /** Columns of one matrix. */
  maxColumns: 200,
  /** Bits of the absolute value of an integer entry, or of a fraction's numerator and denominator each. */
  maxEntryBits: 4096,
  /**
   * Longest text of one entry in UTF-16 code units: a numerator and a denominator of at most
   * 4096 bits (1234 decimal digits each), a sign and a slash. Checked before BigInt() sees it.
   */
  maxEntryTextLength: 2470,
} as const;

/** Decimal digits of the largest integer of at most `maxEntryBits` bits (2^4096 has 1234 digits). */
export const MAX_ENTRY_DIGITS = Math.ceil(MATRIX_LIMITS.maxEntryBits * Math.log10(2));
