/**
 * JSON that is safe inside a `<script>` element: `<`, `>` and `&` become \u escapes, so no value
 * can close the element (`</script>`) or open a comment, and the text still parses as the same JSON.
 * U+2028 and U+2029 are escaped for old JavaScript parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
