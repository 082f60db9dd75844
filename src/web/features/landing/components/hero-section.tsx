import { landingAnchors, paths } from '@web/app/paths';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { ArrowRight, Users } from 'lucide-react';
import { Link } from 'wouter';

export function HeroSection() {
  return (
    <section
      aria-labelledby="hero-title"
      className="border-b bg-gradient-to-b from-muted/60 to-background"
    >
      <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-20 text-center sm:px-6 md:py-28">
        <Badge
          variant="secondary"
          className="mb-6 gap-1.5 whitespace-normal px-3 py-1 text-center text-sm"
        >
          <Users aria-hidden="true" />
          Join 500+ insurance agents growing their business
        </Badge>
        <h1 id="hero-title" className="font-bold text-4xl tracking-tight sm:text-5xl md:text-6xl">
          Grow Your Insurance Business
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-muted-foreground">
          Receive exclusive, qualified Medicare, ACA and Final Expense leads every day. Our packages
          include CRM integration, call recording, follow-up messages, automated daily lead
          assignment by preferences, CSV lead import, performance analytics (conversion rates, daily
          quotas) and role-based access control.
        </p>
        <div className="mt-10 flex flex-col gap-3 sm:flex-row">
          <Button size="lg" asChild>
            <Link href={paths.register}>
              Get Started
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button size="lg" variant="outline" asChild>
            <a href={`#${landingAnchors.packages}`}>View Packages</a>
          </Button>
        </div>
      </div>
    </section>
  );
}
