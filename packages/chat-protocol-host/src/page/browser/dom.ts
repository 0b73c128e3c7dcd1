/**
 * The page's one way to build DOM: elements, attributes set with
 * `setAttribute`, and children that are nodes or plain strings made into text
 * nodes. Nothing here parses markup, so model text can never become HTML (the
 * page's Content-Security-Policy also requires Trusted Types, which refuses
 * `innerHTML` with a string outright).
 */

/** A child: a node, or a string shown as text. */
export type Child = Node | string;

/**
 * Creates `<tag>` with `attributes` and `children`. Guarantees: strings become
 * text nodes (never markup); event-handler attributes (`on…`) are refused with
 * `TypeError`, so handlers are only ever added with `addEventListener`.
 */
export function element<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Readonly<Record<string, string>> = {},
  children: readonly Child[] = [],
): HTMLElementTagNameMap[Tag] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.toLowerCase().startsWith('on')) throw new TypeError(`element: no inline handler attributes (${name})`);
    node.setAttribute(name, value);
  }
  node.append(...children.map((child) => (typeof child === 'string' ? document.createTextNode(child) : child)));
  return node;
}
