import { CtaSection } from '@web/features/landing/components/cta-section';
import { FeaturesSection } from '@web/features/landing/components/features-section';
import { HeroSection } from '@web/features/landing/components/hero-section';
import { LandingFooter } from '@web/features/landing/components/landing-footer';
import { LandingHeader } from '@web/features/landing/components/landing-header';
import { PackagesSection } from '@web/features/landing/components/packages-section';

export function LandingPage() {
  return (
    <div className="flex min-h-svh flex-col">
      <title>LeadFlow: Exclusive Insurance Leads for Agents</title>
      <LandingHeader />
      <main className="flex-1">
        <HeroSection />
        <PackagesSection />
        <FeaturesSection />
        <CtaSection />
      </main>
      <LandingFooter />
    </div>
  );
}
