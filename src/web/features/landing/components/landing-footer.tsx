import { landingAnchors, paths } from '@web/app/paths';
import { BrandLogo } from '@web/components/layout/brand-logo';
import { Link } from 'wouter';

type FooterLink = { label: string; href: string; internal?: boolean };

const columns: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'Packages', href: `#${landingAnchors.packages}` },
      { label: 'Features', href: `#${landingAnchors.features}` },
    ],
  },
  {
    title: 'Quick Links',
    links: [
      { label: 'Log In', href: paths.login, internal: true },
      { label: 'Sign Up', href: paths.register, internal: true },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy Policy', href: paths.privacy, internal: true },
      { label: 'Terms of Service', href: paths.terms, internal: true },
    ],
  },
];

const linkClass = 'text-muted-foreground text-sm transition-colors hover:text-foreground';

export function LandingFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div>
          <BrandLogo />
          <p className="mt-3 text-muted-foreground text-sm">
            Qualified insurance leads, delivered to agents every day.
          </p>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="font-semibold text-sm">{column.title}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.label}>
                  {link.internal ? (
                    <Link href={link.href} className={linkClass}>
                      {link.label}
                    </Link>
                  ) : (
                    <a href={link.href} className={linkClass}>
                      {link.label}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-6xl px-4 py-6 text-center text-muted-foreground text-sm sm:px-6">
          © {year} LeadFlow. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
