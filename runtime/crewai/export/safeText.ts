/** Crew text placed in the generated Python and YAML, so that it can never end a comment or a docstring. */

/**
 * Text for a `#` comment (Python or YAML): every character either language reads as a line break
 * (Python also ends a line at a lone CR; PyYAML at NEL, LS and PS) becomes a space, so a crew's text
 * can never end the comment and become code or configuration.
 */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\u0085\u2028\u2029]/g, ' ');
}

/** Text inside a `"""…"""` docstring: backslashes and every double quote escaped, so it cannot close it. */
export function docstringText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
