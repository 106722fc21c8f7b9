/**
 * Passwords made by a pattern instead of chosen. The list of common passwords leaves them out
 * (zxcvbn finds them with matchers of their own), yet `aaaaaa`, `654321` and `abcabc` are among the
 * first guesses of any attacker. Shared by the server's password policy and the profile's strength
 * meter, so the meter never calls Strong a password the server refuses.
 */
import { MIN_ADMIN_PASSWORD } from "./constants.ts";

/**
 * What pattern the whole of `password` is, in words that finish "This password is …", or null.
 * Only the whole password counts: a passphrase that merely holds a run (`velvet abcdef orbit`) is
 * not one.
 */
export function passwordPattern(password: string): string | null {
  if (password.trim() === "") return "only blank characters";
  const characters = [...password.toLowerCase()];
  const unit = repeatedUnit(characters);
  if (unit === 1) return "one character repeated";
  if (unit !== null) return "a short pattern repeated";
  if (isRun(characters)) return "a run of letters or digits";
  return null;
}

/**
 * The length of the unit the characters repeat (`abcabc`: 3), counting only units shorter than the
 * minimum length: such a unit alone would be refused as too short, and writing it again adds
 * almost nothing to guess. A longer unit repeated can be a real passphrase said twice.
 */
function repeatedUnit(characters: string[]): number | null {
  for (let unit = 1; unit < MIN_ADMIN_PASSWORD && unit * 2 <= characters.length; unit++) {
    if (
      characters.length % unit === 0 &&
      characters.every((character, i) => character === characters[i % unit])
    ) return unit;
  }
  return null;
}

/**
 * Letters or digits each one after (or each one before) the last: `abcdef`, `654321`. On the
 * keyboard's number row 0 comes after 9, so `1234567890` and `0987654321` are runs as well.
 */
function isRun(characters: string[]): boolean {
  const codes = characters.map((character) => character.codePointAt(0)!);
  const steps = codes.slice(1).map((code, i) => code - codes[i]);
  if (characters.every((character) => /^[a-z]$/.test(character))) {
    return steps.every((step) => step === 1) || steps.every((step) => step === -1);
  }
  if (characters.every((character) => /^\d$/.test(character))) {
    return steps.every((step) => step === 1 || step === -9) ||
      steps.every((step) => step === -1 || step === 9);
  }
  return false;
}
