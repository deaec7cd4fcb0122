/** The languages the SPA speaks (public/locales); English is the base every text has. */
export type ContentLanguage = 'en' | 'nl';
export const LANGUAGES: readonly ContentLanguage[] = ['en', 'nl'];

export function isContentLanguage(language: string): language is ContentLanguage {
  return LANGUAGES.includes(language as ContentLanguage);
}
