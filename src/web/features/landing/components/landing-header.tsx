import { landingAnchors, paths } from '@web/app/paths';
import { BrandLogo } from '@web/components/layout/brand-logo';
import { Button } from '@web/components/ui/button';
import { Menu, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

const sectionLinks = [
  { href: `#${landingAnchors.packages}`, label: 'Packages' },
  { href: `#${landingAnchors.features}`, label: 'Features' },
];

export function LandingHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link href={paths.landing} aria-label="LeadFlow home" className="rounded-md">
          <BrandLogo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-6 md:flex">
          {sectionLinks.map((link) => (
            <a
              key={link.href}
              href={link.href}
              className="font-medium text-muted-foreground text-sm transition-colors hover:text-foreground"
            >
              {link.label}
            </a>
          ))}
          <Button variant="ghost" asChild>
            <Link href={paths.login}>Log In</Link>
          </Button>
          <Button asChild>
            <Link href={paths.register}>Get Started</Link>
          </Button>
        </nav>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          data-testid="mobile-menu-toggle"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
        </Button>
      </div>
      {menuOpen && (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t px-4 pt-2 pb-4 md:hidden">
          <ul className="grid gap-1">
            {sectionLinks.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  onClick={closeMenu}
                  className="block rounded-md px-3 py-2 font-medium text-sm hover:bg-accent"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
          <div className="mt-3 grid grid-cols-2 gap-2">
            <Button variant="outline" asChild>
              <Link href={paths.login}>Log In</Link>
            </Button>
            <Button asChild>
              <Link href={paths.register}>Get Started</Link>
            </Button>
          </div>
        </nav>
      )}
    </header>
  );
}
