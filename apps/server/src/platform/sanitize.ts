import sanitize from 'sanitize-html';

/**
 * HTML from the back office (FAQ answers) is cleaned here, at the server, before it is stored:
 * formatting and http(s)/mailto links stay; scripts, event handlers, `javascript:` URLs, iframes,
 * images and styles go. sanitize-html parses with htmlparser2 (no DOM needed on the server).
 */
const OPTIONS: sanitize.IOptions = {
  allowedTags: ['a', 'b', 'strong', 'i', 'em', 'u', 'p', 'br', 'ul', 'ol', 'li', 'span', 'h3', 'h4', 'blockquote', 'code'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: { a: sanitize.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

export function sanitizeHtml(html: string): string {
  return sanitize(html, OPTIONS);
}
