/**
 * A company's logo, on the public pages and in the admin portal alike. The company's initials are
 * drawn at a fixed size beneath the image, so nothing moves as the logo loads over them and a
 * company without a logo, or whose logo does not load, shows its initials. The logo is decorative,
 * as the company's name is always written beside it. Logos load lazily, except one needed at once
 * (`eager`). A broken image is removed by its error handler where the component runs in the browser
 * (the admin app), and on the server-rendered public pages by client/components/logos.ts.
 */
import { useState } from "react";

/** The first `letters` letters of the company's name, capitalised. */
export function companyInitials(name: string, letters = 1): string {
  return Array.from(name.trim()).slice(0, letters).join("").toUpperCase();
}

export function CompanyLogo(
  { name, logo, size, className, letters = 1, eager = false }: {
    name: string;
    logo?: string;
    /** Width and height in CSS pixels. */
    size: number;
    /** The look of where it is shown: the public site's `logo logo-48`, the admin's utilities. */
    className: string;
    letters?: number;
    eager?: boolean;
  },
) {
  const [broken, setBroken] = useState(false);
  return (
    <span className={`${className} logo-placeholder`} aria-hidden="true">
      {companyInitials(name, letters) || "?"}
      {logo && !broken && (
        <img
          src={logo}
          alt=""
          width={size}
          height={size}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          referrerPolicy="no-referrer"
          onError={() => setBroken(true)}
        />
      )}
    </span>
  );
}
