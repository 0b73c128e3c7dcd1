/**
 * An immutable list for the reducer's turns: `get` and `set` in O(log32 n),
 * `push` in amortised O(1), and every version shares all but one path with the
 * version it came from (a 32-way trie with a separate tail, as in Clojure's
 * vectors). It owns no semantics of turns; it exists so applying an event never
 * copies the whole turn list. Internal: not exported from the package.
 */

// Literals, not `1 << BITS`: bundlers keep a top-level computed constant in every bundle of the package, used or not.
const BITS = 5;
const WIDTH = 32; // 1 << BITS
const MASK = 31; // WIDTH - 1

type Node = readonly unknown[];

/** One version of a list. Treat as opaque and immutable. */
export interface PersistentList<Item> {
  readonly size: number;
  readonly shift: number;
  readonly root: Node;
  readonly tail: readonly Item[];
}

/** The empty list. */
export function emptyList<Item>(): PersistentList<Item> {
  return { size: 0, shift: BITS, root: [], tail: [] };
}

/** A list of `items`, in order (built by pushing; `items` is not kept). */
export function listOf<Item>(items: readonly Item[]): PersistentList<Item> {
  let list = emptyList<Item>();
  for (const item of items) list = pushItem(list, item);
  return list;
}

function tailOffset(list: PersistentList<unknown>): number {
  return list.size < WIDTH ? 0 : ((list.size - 1) >>> BITS) << BITS;
}

/** The item at `index`, or `undefined` outside `0 ≤ index < size`. */
export function itemAt<Item>(list: PersistentList<Item>, index: number): Item | undefined {
  if (index < 0 || index >= list.size) return undefined;
  const offset = tailOffset(list);
  if (index >= offset) return list.tail[index - offset];
  let node = list.root;
  for (let level = list.shift; level > 0; level -= BITS) node = node[(index >>> level) & MASK] as Node;
  return node[index & MASK] as Item;
}

/** The last item, or `undefined` when the list is empty (O(1): it is in the tail). */
export function lastItem<Item>(list: PersistentList<Item>): Item | undefined {
  return list.tail[list.tail.length - 1];
}

/** A new version with `item` at `index` (which must be `0 ≤ index < size`). */
export function setItem<Item>(list: PersistentList<Item>, index: number, item: Item): PersistentList<Item> {
  const offset = tailOffset(list);
  if (index >= offset) {
    const tail = list.tail.slice();
    tail[index - offset] = item;
    return { size: list.size, shift: list.shift, root: list.root, tail };
  }
  return { size: list.size, shift: list.shift, root: setInNode(list.root, list.shift, index, item), tail: list.tail };
}

function setInNode(node: Node, level: number, index: number, item: unknown): Node {
  const copy = node.slice();
  if (level === 0) copy[index & MASK] = item;
  else {
    const slot = (index >>> level) & MASK;
    copy[slot] = setInNode(node[slot] as Node, level - BITS, index, item);
  }
  return copy;
}

/** A new version with `item` appended. */
export function pushItem<Item>(list: PersistentList<Item>, item: Item): PersistentList<Item> {
  if (list.size - tailOffset(list) < WIDTH) {
    const tail = list.tail.slice();
    tail.push(item);
    return { size: list.size + 1, shift: list.shift, root: list.root, tail };
  }
  // The tail is full: it moves into the trie, and `item` starts a new tail.
  let root: Node;
  let shift = list.shift;
  if (list.size >>> BITS > 1 << list.shift) {
    root = [list.root, pathTo(list.shift, list.tail)];
    shift += BITS;
  } else {
    root = pushTail(list.root, list.shift, list.size, list.tail);
  }
  return { size: list.size + 1, shift, root, tail: [item] };
}

function pushTail(node: Node, level: number, size: number, tail: Node): Node {
  const copy = node.slice();
  const slot = ((size - 1) >>> level) & MASK;
  if (level === BITS) copy[slot] = tail;
  else {
    const child = node[slot] as Node | undefined;
    copy[slot] = child === undefined ? pathTo(level - BITS, tail) : pushTail(child, level - BITS, size, tail);
  }
  return copy;
}

function pathTo(level: number, tail: Node): Node {
  return level === 0 ? tail : [pathTo(level - BITS, tail)];
}

/** The items in order, as a fresh array. */
export function toArray<Item>(list: PersistentList<Item>): Item[] {
  const items: Item[] = [];
  const offset = tailOffset(list);
  for (let start = 0; start < offset; start += WIDTH) {
    let node = list.root;
    for (let level = list.shift; level > 0; level -= BITS) node = node[(start >>> level) & MASK] as Node;
    for (const item of node) items.push(item as Item);
  }
  for (const item of list.tail) items.push(item);
  return items;
}
