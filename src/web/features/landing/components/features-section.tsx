import { landingAnchors } from '@web/app/paths';
import { ChartColumn, FileSpreadsheet, ShieldCheck, Zap } from 'lucide-react';

const features = [
  {
    icon: Zap,
    title: 'Automated Lead Assignment',
    text: 'Fresh leads reach you every day, matched to your states, cities, ages and categories.',
  },
  {
    icon: FileSpreadsheet,
    title: 'Easy CSV Import',
    text: 'Admins upload lead lists as CSV files and new leads go out to agents right away.',
  },
  {
    icon: ChartColumn,
    title: 'Performance Analytics',
    text: 'Track conversion rates, daily quotas and results for every agent at a glance.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure & Reliable',
    text: 'Role-based access control keeps each lead visible only to the agent who owns it.',
  },
] as const;

export function FeaturesSection() {
  return (
    <section
      id={landingAnchors.features}
      aria-labelledby="features-title"
      className="border-y bg-muted/40"
    >
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="features-title" className="font-bold text-3xl tracking-tight sm:text-4xl">
            Everything You Need to Succeed
          </h2>
          <p className="mt-4 text-muted-foreground">
            Tools that help agents work leads faster and admins run the business.
          </p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border bg-background p-6 shadow-sm">
              <span className="flex size-10 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-muted-foreground text-sm">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
