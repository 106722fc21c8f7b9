/**
 * A company logo that fails to load (a dead link, a host that is down) is removed, so the company's
 * first letter drawn beneath it shows instead of a broken-image icon. Every public page with an
 * island runs this at once (client/wake.ts); without JavaScript a broken logo stays an icon.
 */
const LOGOS = ".logo-placeholder > img";

function dropIfBroken(image: HTMLImageElement) {
  if (image.complete && image.naturalWidth === 0) image.remove();
}

export function dropBrokenLogos() {
  // Failures before this script ran are found by looking; later ones (lazy logos) by listening.
  for (const image of document.querySelectorAll<HTMLImageElement>(LOGOS)) dropIfBroken(image);
  document.addEventListener("error", (event) => {
    const target = event.target;
    if (target instanceof HTMLImageElement && target.matches(LOGOS)) target.remove();
  }, true);
}
