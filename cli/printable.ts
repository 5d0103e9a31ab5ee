/**
 * Text from a file or a server, made safe to print on a terminal. A tag value, a header field,
 * a file name or a server's message may hold control sequences that clear the screen, set the
 * window's title, write the clipboard (OSC 52) or make hidden links (OSC 8): every C0 control
 * character but tab, line feed, carriage return before a line feed (CSV's CRLF) and the record
 * separator (RFC 8142's, which terminals ignore), DEL and the C1 controls are written as `\u001b`-style escapes. Inside a JSON string such an escape
 * means the same character, so the JSON formats stay exact; in text and CSV it shows as text.
 */
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1d\x1f\x7f-\x9f]|\r(?!\n)/g;

/** `text` with its control characters escaped (see the module's documentation). */
export const printable = (text: string): string => text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
