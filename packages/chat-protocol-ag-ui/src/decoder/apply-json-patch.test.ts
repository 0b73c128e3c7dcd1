import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from './apply-json-patch.js';

// RFC 6902 appendix A, and the refusals the decoder relies on (AG-UI's STATE_DELTA is a JSON Patch).
describe('applyJsonPatch (RFC 6902, for AG-UI STATE_DELTA)', () => {
  it.each([
    ['A.1 add an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { foo: 'bar', baz: 'qux' }],
    ['A.2 add an array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
    ['A.3 remove an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    ['A.4 remove an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    ['A.5 replace a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
    [
      'A.6 move a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      'A.7 move an array element',
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      'A.8 test a value',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    [
      'A.10 add a nested member',
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    ['A.14 ~ escapes', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
    [
      'A.16 add to the end of an array',
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
    ['copy a value', { a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }], { a: { b: 1 }, c: { b: 1 } }],
    ['replace the whole document', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
  ])('%s', (_name, document, patch, expected) => {
    const before = JSON.stringify(document);
    expect(applyJsonPatch(document, patch)).toStrictEqual({ ok: true, value: expected });
    expect(JSON.stringify(document)).toBe(before);
  });

  it.each([
    ['A.9 a failed test', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]],
    ['A.12 add to a missing parent', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]],
    ['remove a missing member', { foo: 'bar' }, [{ op: 'remove', path: '/baz' }]],
    ['an index past the end', { foo: [1] }, [{ op: 'add', path: '/foo/2', value: 3 }]],
    ['a leading-zero index', { foo: [1, 2] }, [{ op: 'replace', path: '/foo/01', value: 3 }]],
    ['A.15 an unknown op', { foo: 1 }, [{ op: 'merge', path: '/foo', value: 2 }]],
    ['a move into its own child', { a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]],
    ['a path through __proto__', {}, [{ op: 'add', path: '/__proto__/polluted', value: true }]],
    ['a member named __proto__', {}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]],
    ['a member named constructor', {}, [{ op: 'add', path: '/constructor', value: 1 }]],
    ['not an array of operations', {}, { op: 'add', path: '/a', value: 1 }],
    ['a path that is not a pointer', {}, [{ op: 'add', path: 'a', value: 1 }]],
  ])('refuses %s as invalid-patch, all or nothing', (_name, document, patch) => {
    expect(applyJsonPatch(document, patch)).toMatchObject({ ok: false, code: 'invalid-patch' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
