export { LandingPage, ThankYouMessage, LandingTexts, CARD_MAX_WIDTH_PX, MAIN_IMAGE_HEIGHT_PX } from './LandingPage';
export type { LandingPageProps, LandingPageState } from './LandingPage';
export { LANDING_PAGE_CSS } from './styles';
export { consentStatement, type ConsentStatement } from './consent';
export { fontStack, contrastTextColor, safeColor, safeUrl, cssUrl, thankYouButton } from './theme';
export {
  WEB_FONT_PACKAGES,
  FONT_WEIGHTS,
  FONTS_PATH,
  allFontFacesCss,
  fontFaceCss,
  fontFileName,
  preloadFontUrls,
  usedWebFonts,
  webFontFiles,
  type FontWeight,
  type PageFonts,
} from './fonts';
export { htmlToText } from './text';
export { socialCard, absoluteUrl, pageDescription, SOCIAL_CARD_DEFAULT_TITLE, type SocialCard, type SocialCardPage } from './social-card';
