import { typed } from '../../kernel/typedSchema';

/** The largest value of a PostgreSQL bigint; ids that match the spec's pattern but exceed it exist nowhere. */
const BIGINT_MAX = 9_223_372_036_854_775_807n;
export const fitsBigint = (id: string): boolean => BigInt(id) <= BIGINT_MAX;

const lonelySurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text that PostgreSQL stores exactly as sent: no NUL character and no unpaired UTF-16 surrogate (either
 * would be refused by the database or silently replaced). Lengths count UTF-16 code units, as JSON does.
 */
export const text = (max: number) =>
  typed
    .string()
    .max(max)
    .custom((value: string, helpers) =>
      value.includes('\u0000') || lonelySurrogate.test(value) ? helpers.error('string.storable') : value,
    )
    .messages({ 'string.storable': '{{#label}} must not contain NUL characters or unpaired surrogates' });

/** A decimal id as the spec writes it (`^[1-9][0-9]{0,18}$`). */
export const decimalId = () => typed.string().pattern(/^[1-9][0-9]{0,18}$/, 'decimal id');

export const GENOMICS_BATCH_PATTERN = /^batch-[0-9]{3,6}$/;
export const TOPIC_NUMBER_MAX = 2_147_483_647;
export const CAMPAIGN_ID_MAX = 256;
export const campaignId = () => text(CAMPAIGN_ID_MAX);
