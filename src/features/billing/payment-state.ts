/** The anchor of the saved cards on /settings/billing, where the failed-renewal banner's "Update card" leads. */
export const CARDS_ANCHOR = 'cards';
