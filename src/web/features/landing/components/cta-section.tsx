import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';

export function CtaSection() {
  return (
    <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <div className="rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground sm:px-12">
        <h2 id="cta-title" className="font-bold text-3xl tracking-tight">
          Ready to Grow Your Business?
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-primary-foreground/80">
          Create your account, pick a package and start receiving qualified leads tomorrow morning.
        </p>
        <Button size="lg" variant="secondary" className="mt-8" asChild>
          <Link href={paths.register}>
            Start Today
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
