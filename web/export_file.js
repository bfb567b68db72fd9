// @ts-check
// An export leaves the page: onto the clipboard, or into a file. Each
// returns what to tell the person.

// Copies the text of `field` (a textarea); where the clipboard is refused,
// the selection and the old copy command.
/** @param {HTMLTextAreaElement} field */
export async function copyText(field) {
  const text = field.value;
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    field.select();
    if (!document.execCommand('copy')) return 'Not copied: this browser refused. Select the text and copy it.';
  }
  return `Copied ${text.length} characters.`;
}

// Saves `text` as a download named `name`.
/** @param {string} text @param {string} name */
export function downloadText(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return `Saved as ${name}.`;
}
