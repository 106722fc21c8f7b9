/** The public header and footer, on every public page. */
import { Fragment } from "react";

export type Section = "home" | "jobs" | "saved";

const NAV: { section: Section; href: string; label: string }[] = [
  { section: "home", href: "/", label: "Home" },
  { section: "jobs", href: "/jobs", label: "Jobs" },
];

function Logo() {
  return (
    <svg className="logo-mark" width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path d="M9 12h14v11H9zM13 12V9h6v3" fill="none" stroke="#fff" strokeWidth="2" />
    </svg>
  );
}

/**
 * What the header holds but the Saved link, `current` marked as the page's section: the same HTML
 * on every page of a section.
 */
export function HeaderContent({ current }: { current?: Section }) {
  return (
    <>
      <a href="/" className="brand">
        <Logo />
        <span>CareerEdge</span>
      </a>
      <nav aria-label="Main">
        <ul className="nav-list">
          {NAV.map((item) => (
            <li key={item.href}>
              <a
                href={item.href}
                className="nav-link"
                aria-current={item.section === current ? "page" : undefined}
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}

/** The site's postal address, line by line: in the footer and in every mail. */
export const POSTAL_ADDRESS = ["42 MG Road, Indiranagar", "Bengaluru, Karnataka 560038"];

const QUICK_LINKS = [
  { href: "/", label: "Home" },
  { href: "/jobs", label: "Browse Jobs" },
  { href: "/about", label: "About Us" },
  { href: "/contact", label: "Contact" },
];
const CATEGORIES = ["Software Engineering", "Data Science", "Marketing", "Design", "Sales"];
const LEGAL = ["Privacy Policy", "Terms of Service", "Cookie Policy"];
const SOCIAL = ["LinkedIn", "X", "Facebook", "Instagram"];

/** What the footer holds: the same on every page. */
export function FooterContent() {
  return (
    <>
      <div className="wrap footer-grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="footer-brand">CareerEdge</h2>
          <p className="footer-text">
            Connecting talented people with great companies. Find your dream job today.
          </p>
          <ul className="social-list" aria-label="Social media">
            {SOCIAL.map((name) => (
              <li key={name}>
                <a href="#" className="footer-link">{name}</a>
              </li>
            ))}
          </ul>
        </section>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick" className="footer-heading">Quick Links</h2>
          <ul className="footer-list">
            {QUICK_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href} className="footer-link">{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-categories">
          <h2 id="footer-categories" className="footer-heading">Job Categories</h2>
          <ul className="footer-list">
            {CATEGORIES.map((name) => (
              <li key={name}>
                <a href="#" className="footer-link">{name}</a>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="footer-heading">Contact Us</h2>
          <address className="footer-text">
            {POSTAL_ADDRESS.map((line) => (
              <Fragment key={line}>
                {line}
                <br />
              </Fragment>
            ))}
            <a href="tel:+918012345678" className="footer-link">+91 80 1234 5678</a>
            <br />
            <a href="mailto:hello@careeredge.example" className="footer-link">
              hello@careeredge.example
            </a>
          </address>
        </section>
      </div>
      <div className="wrap footer-bottom">
        <p>© 2024 CareerEdge. All rights reserved.</p>
        <ul className="legal-list">
          {LEGAL.map((name) => (
            <li key={name}>
              <a href="#" className="footer-link">{name}</a>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
