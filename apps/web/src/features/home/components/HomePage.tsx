import { Navigate } from 'react-router-dom';
import { PageLoader } from '../../../components/PageLoader';
import { useCurrentUser } from '../../auth';
import { useScrollToHash } from '../hooks/useScrollToHash';
import { CallToActionSection } from './CallToActionSection';
import { ExamplesSection } from './ExamplesSection';
import { FaqSection } from './FaqSection';
import { FeaturesSection } from './FeaturesSection';
import { HeroSection } from './HeroSection';
import { HowItWorksSection } from './HowItWorksSection';
import { PricingSection } from './PricingSection';
import { SiteFooter } from './SiteFooter';

function MarketingSections() {
  useScrollToHash();
  return (
    <>
      <HeroSection />
      <FeaturesSection />
      <HowItWorksSection />
      <ExamplesSection />
      <PricingSection />
      <CallToActionSection />
      <FaqSection />
      <SiteFooter />
    </>
  );
}

/** The marketing home page; a signed-in user goes to the dashboard instead. */
export function HomePage() {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <PageLoader />;
  if (user) return <Navigate to="/dashboard" replace />;
  return <MarketingSections />;
}
